"""Glossary terms of how the planner counts: the horizon, the planning period, the run-rate,
one-off costs, price dates, ranges and where options cross."""

from django.utils.translation import gettext_lazy as _

from apps.glossary.term import Misconception, Term

TERMS = (
    Term(
        slug="calibration",
        name=_("Calibration"),
        definition=_(
            "Checking the planner against results someone actually measured and published: a "
            "benchmark run of a model on known hardware, or the accelerator-hours a model's "
            "makers report for training it. The planner is given the same model, hardware and "
            "conditions, every other input left at its default, and its figure is set beside "
            "the published one. Where the two stay close, the defaults can be trusted for "
            "similar plans; where they do not, the table says by how much."
        ),
        example=_(
            "Checking a kitchen scale with a bag of sugar marked 1 kg: if it reads 990 g, you "
            "know how far to trust it for the rest of the recipe."
        ),
        limits=_(
            "A benchmark is one workload, tuned by experts on the best software of its day. "
            "Your own requests, software and team may do better or worse than the published "
            "run, and a result that holds says nothing about hardware or models it does not "
            "cover."
        ),
        misconceptions=(
            Misconception(
                _("A planner that matches benchmarks will match my bill."),
                _(
                    "It matches runs that kept the accelerators busy. Idle hours, retries and "
                    "traffic peaks are part of a real bill: the planner counts them through "
                    "utilisation and peak demand, which the benchmarks leave out."
                ),
            ),
        ),
        related=("mfu", "time-per-output-token", "accelerator-hour"),
        page="calibration",
        page_label=_("See the calibration table: published results beside the planner."),
    ),
    Term(
        slug="horizon",
        name=_("Horizon"),
        definition=_(
            "The number of months of use an estimate counts, from the month the service opens. "
            "A figure “over the horizon” adds up every month in it: requests, accelerator-hours, "
            "cost, energy."
        ),
        example=_(
            "Two phone contracts compared over 24 months: the total depends on how many months "
            "you count, not only on the monthly price."
        ),
        limits=_(
            "The horizon is not a budget year: the budget takes the same months and splits them "
            "by fiscal year, inside its planning period."
        ),
        misconceptions=(
            Misconception(
                _("A longer horizon makes a service more expensive."),
                _(
                    "It makes the total larger, not each month dearer. When two scenarios count "
                    "different horizons, compare their monthly figures or their cost per request."
                ),
            ),
        ),
        related=("planning-period", "break-even", "inference-compute"),
    ),
    Term(
        slug="planning-period",
        name=_("Planning period"),
        definition=_(
            "The dates a project's budget covers, from its first month to its last. The budget "
            "splits the costs inside it by fiscal year; a cost that falls outside it is left out, "
            "and the budget says so."
        ),
        related=("fiscal-year", "horizon", "net-present-value"),
    ),
    Term(
        slug="annual-run-rate",
        name=_("Annual run-rate"),
        definition=_(
            "What a system costs a year to keep running once it is in steady use: the operating "
            "costs (opex) of a full year, after the one-off and upfront costs are behind it."
        ),
        example=_(
            "A flat's yearly rent and bills, apart from what moving in cost: the deposit and the "
            "removal van."
        ),
        misconceptions=(
            Misconception(
                _("The run-rate is the budget's total divided by its years."),
                _(
                    "The total also holds the one-off and upfront costs, and the first year may "
                    "be short; the run-rate is what an ordinary full year costs."
                ),
            ),
        ),
        related=("capex-and-opex", "one-off-cost", "total-cost-of-ownership"),
    ),
    Term(
        slug="one-off-cost",
        name=_("One-off cost"),
        definition=_(
            "A cost paid once rather than month after month: training or fine-tuning a model, "
            "setting a system up. Among the options compared, it is the training the option "
            "needs within the planning period."
        ),
        limits=_(
            "Once is seldom for ever: a model is often trained again when its data or its task "
            "changes, and each new training is another one-off cost."
        ),
        related=("training-compute", "capex-and-opex", "annual-run-rate"),
    ),
    Term(
        slug="price-date",
        name=_("Price date"),
        definition=_(
            "The day a price was last checked. Prices of accelerators and model APIs change "
            "often, mostly downwards, so every price in the catalogue carries its date and its "
            "source, and a budget says which day its prices are from."
        ),
        misconceptions=(
            Misconception(
                _("A price in the catalogue is a quote."),
                _(
                    "It is a public list price on that day, for guidance. What you pay depends "
                    "on contracts, volumes, commitments and discounts."
                ),
            ),
        ),
        related=("accelerator-hour", "total-cost-of-ownership"),
    ),
    Term(
        slug="uncertainty-range",
        # xgettext:no-python-format
        name=_("90 % range"),
        definition=_(
            "Two numbers between which a figure is expected to fall 9 times in 10. You give "
            "such ranges for the inputs you are unsure of; the planner draws many combinations "
            "of them at random (a Monte Carlo simulation) and gives each figure's median and its "
            "5th and 95th percentiles. A seed fixes the random draws, so the same inputs give "
            "the same figures every time."
        ),
        example=_(
            "A journey that “usually takes 30 minutes, between 25 and 45”: the range says more "
            "than one number would."
        ),
        limits=_(
            "The ranges out are only as good as the ranges in, and they leave out whatever "
            "nobody thought of."
        ),
        misconceptions=(
            Misconception(
                _("Adding up the low ends of each cost gives the low end of the total."),
                _(
                    "The low ends rarely happen all together. Each total's range is worked out "
                    "from the totals of the samples themselves, never by adding ranges."
                ),
            ),
        ),
        related=("scenario", "sweep", "break-even"),
    ),
    Term(
        slug="crossover",
        name=_("Crossover volume"),
        definition=_(
            "The number of requests a month at which two ways of serving cost the same. Below "
            "it, the option paid per use costs less; above it, the option with fixed costs, such "
            "as accelerators kept on or bought, costs less."
        ),
        example=_(
            "Taxis against leasing a car: below so many journeys a month the taxis cost less, "
            "above it the car does."
        ),
        limits=_(
            "It assumes steady demand. With sharp peaks, fixed capacity has to be sized for the "
            "peak, and the crossover moves higher."
        ),
        related=("pay-per-use-vs-always-on", "break-even", "peak-to-average"),
    ),
)
