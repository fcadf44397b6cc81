"""The estimate engine: training and inference compute, cost and energy (Python and NumPy)."""

from apps.estimates.engine import ENGINE_VERSION, estimate, evaluate
from apps.estimates.inputs import (
    EnergyProfile,
    EstimateInput,
    EstimateInputError,
    Hardware,
    InferenceInput,
    Pricing,
    RequestFootprint,
    Threshold,
    TrainingInput,
)
from apps.estimates.results import (
    CommitmentResult,
    ComparisonResult,
    CumulativeMonth,
    EstimateResult,
    Figures,
    InferenceResult,
    InferenceTotal,
    Month,
    PerRequest,
    ReplicaChoice,
    ServingResult,
    ThresholdResult,
    TrainingResult,
)
from apps.estimates.validation import validate

__all__ = [
    "ENGINE_VERSION",
    "CommitmentResult",
    "ComparisonResult",
    "CumulativeMonth",
    "EnergyProfile",
    "EstimateInput",
    "EstimateInputError",
    "EstimateResult",
    "Figures",
    "Hardware",
    "InferenceInput",
    "InferenceResult",
    "InferenceTotal",
    "Month",
    "PerRequest",
    "Pricing",
    "ReplicaChoice",
    "RequestFootprint",
    "ServingResult",
    "Threshold",
    "ThresholdResult",
    "TrainingInput",
    "TrainingResult",
    "estimate",
    "evaluate",
    "validate",
]
