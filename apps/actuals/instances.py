"""Cloud GPU instance types and the accelerators each one holds, with where that is written.

A billed instance-hour of a type below is `count` accelerator-hours of the catalogue's
accelerator `accelerator` (its slug), so that actuals compare with the plan's accelerator-hours.
Every row carries its source, evidence tag ([P] the provider's own page, [S] a third-party page
quoting it, as /work/shared/reference names them) and the date it was read. A type not listed
is billed money only: no accelerator-hours are guessed for it.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class InstanceType:
    name: str
    provider: str
    accelerator: str  # the catalogue's accelerator slug
    count: int
    source: str
    evidence: str
    as_of: str


_AWS_P5 = "https://aws.amazon.com/ec2/instance-types/p5/"
_AWS_P4 = "https://aws.amazon.com/ec2/instance-types/p4/"
_AWS_G5 = "https://aws.amazon.com/ec2/instance-types/g5/"
_HYPERSCALERS = (
    "https://raw.githubusercontent.com/datareceipts/data-receipts/main/109-gpu-pricing/"
    "hyperscalers.json"
)
_AWS_GPU_TABLE = "https://gist.github.com/shashankprasanna/10ebe6dc1ba1d8d93db17da4e2cc890e"
_GCP_GPUS = "https://cloud.google.com/compute/docs/gpus"
_GCP_A3 = "https://huggingface.co/spaces/Elfsong/gcp_allocator/commit/c699b03cc198dd5730f243c98e0ad74f2b24bf0e"
_AZURE_GPUS = "https://huggingface.co/docs/microsoft-azure/azure-ai/hardware"
_READ = "2026-12-06"

INSTANCE_TYPES: tuple[InstanceType, ...] = (
    # AWS: the instance-type pages; counts as quoted by a dated third-party table (retrieved
    # 2026-11-09) and a table of AWS GPU instances (p4d, g5).
    InstanceType("p5.48xlarge", "AWS", "nvidia-h100-sxm", 8, _HYPERSCALERS, "S", _READ),
    InstanceType("p4d.24xlarge", "AWS", "nvidia-a100-sxm-40gb", 8, _HYPERSCALERS, "S", _READ),
    InstanceType("p4de.24xlarge", "AWS", "nvidia-a100-sxm-80gb", 8, _HYPERSCALERS, "S", _READ),
    InstanceType("g5.xlarge", "AWS", "nvidia-a10g", 1, _AWS_GPU_TABLE, "S", _READ),
    InstanceType("g5.2xlarge", "AWS", "nvidia-a10g", 1, _AWS_GPU_TABLE, "S", _READ),
    InstanceType("g5.4xlarge", "AWS", "nvidia-a10g", 1, _AWS_GPU_TABLE, "S", _READ),
    InstanceType("g5.8xlarge", "AWS", "nvidia-a10g", 1, _AWS_GPU_TABLE, "S", _READ),
    InstanceType("g5.16xlarge", "AWS", "nvidia-a10g", 1, _AWS_GPU_TABLE, "S", _READ),
    InstanceType("g5.12xlarge", "AWS", "nvidia-a10g", 4, _AWS_GPU_TABLE, "S", _READ),
    InstanceType("g5.24xlarge", "AWS", "nvidia-a10g", 4, _AWS_GPU_TABLE, "S", _READ),
    # Google Cloud: a3-highgpu-8g as listed with its 8 H100 80GB by a GCP allocator's table.
    InstanceType("a3-highgpu-8g", "Google Cloud", "nvidia-h100-sxm", 8, _GCP_A3, "S", _READ),
    # Azure: the GPU sizes as Hugging Face's Azure documentation lists them.
    InstanceType(
        "Standard_ND96isr_H100_v5", "Azure", "nvidia-h100-sxm", 8, _AZURE_GPUS, "S", _READ
    ),
    InstanceType(
        "Standard_ND96asr_v4", "Azure", "nvidia-a100-sxm-40gb", 8, _AZURE_GPUS, "S", _READ
    ),
    InstanceType(
        "Standard_ND96amsr_A100_v4", "Azure", "nvidia-a100-sxm-80gb", 8, _AZURE_GPUS, "S", _READ
    ),
    InstanceType(
        "Standard_NC24ads_A100_v4", "Azure", "nvidia-a100-pcie-80gb", 1, _AZURE_GPUS, "S", _READ
    ),
    InstanceType(
        "Standard_NC48ads_A100_v4", "Azure", "nvidia-a100-pcie-80gb", 2, _AZURE_GPUS, "S", _READ
    ),
    InstanceType(
        "Standard_NC96ads_A100_v4", "Azure", "nvidia-a100-pcie-80gb", 4, _AZURE_GPUS, "S", _READ
    ),
)

# Looked up case-insensitively: providers write "Standard_ND96isr_H100_v5" and "p5.48xlarge".
BY_NAME = {instance.name.lower(): instance for instance in INSTANCE_TYPES}

# Where the pages named above are, for the reader who checks a row by the provider's own words.
PROVIDER_PAGES = (_AWS_P5, _AWS_P4, _AWS_G5, _GCP_GPUS)


def instance_type(name: str) -> InstanceType | None:
    return BY_NAME.get(name.strip().lower())
