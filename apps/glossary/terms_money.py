"""Glossary terms of money, energy and rules: costs, budgets, break-even, emissions, thresholds."""

from django.utils.translation import gettext_lazy as _

from apps.glossary.term import Misconception, Term

TERMS = (
    Term(
        slug="break-even",
        name=_("Break-even point"),
        definition=_(
            "The month in which what inference has cost so far catches up with what training "
            "cost. Before it, building the model is the larger share; after it, running it is."
        ),
        example=_(
            "Buying a coffee machine for the office against paying for each cup at the café: "
            "after so many cups the machine has cost less."
        ),
        limits=_(
            "Here nothing is paid back: both sides are costs. The point says which side "
            "deserves attention, not that the project earns its money back."
        ),
        related=("training-compute", "inference-compute", "net-present-value"),
    ),
    Term(
        slug="exchange-rate",
        name=_("Exchange rate"),
        definition=_(
            "How many units of one currency one unit of another is worth on a given day. "
            "Catalogue prices are published in US dollars; a project in another currency "
            "converts them at the rate of one date, by default the European Central Bank's "
            "euro reference rate, or at its organisation's own rates, and says which."
        ),
        example=_(
            "A price list in dollars read in euros: the same list costs more or less in euros "
            "depending on the day of the rate."
        ),
        limits=_(
            "One rate of one day is used for every year of the plan: a currency that moves "
            "changes what the budget will really cost."
        ),
        related=("fiscal-year", "net-present-value"),
    ),
    Term(
        slug="capex-and-opex",
        name=_("Capex and opex"),
        definition=_(
            "Capital expenditure (capex) buys something that lasts several years, such as "
            "accelerators bought outright, and is spread over their lifetime. Operating "
            "expenditure (opex) pays for what is used up as you go: rented hours, electricity, "
            "support. Budgets often approve the two separately."
        ),
        misconceptions=(
            Misconception(
                _("Renting is always cheaper than buying."),
                _(
                    "Renting avoids a large payment up front and keeps options open; at steady, "
                    "heavy use over several years, owned hardware can cost less in total."
                ),
            ),
        ),
        related=("total-cost-of-ownership", "fiscal-year", "pay-per-use-vs-always-on"),
    ),
    Term(
        slug="total-cost-of-ownership",
        name=_("Total cost of ownership"),
        definition=_(
            "Everything a system costs over its life, not just its price: hardware or rented "
            "hours, energy and cooling, storage and networking, software licences, support, "
            "staff time, and what it costs to retire it."
        ),
        example=_(
            "A car's price against what it costs with fuel, insurance, servicing and tyres over "
            "ten years."
        ),
        misconceptions=(
            Misconception(
                _("GPU-hours are the whole cost."),
                _(
                    "They are often the largest line but seldom the only one; staff and "
                    "support can weigh as much over the years."
                ),
            ),
        ),
        related=("capex-and-opex", "net-present-value", "accelerator-hour"),
    ),
    Term(
        slug="net-present-value",
        name=_("Net present value"),
        definition=_(
            "Future payments brought back to what they are worth today: money paid in three "
            "years weighs less than money paid now, by a yearly discount rate. It lets you "
            "compare options whose costs fall in different years."
        ),
        example=_(
            "Being paid 100 today or 100 in five years: most people take today, and would want "
            "more than 100 to wait."
        ),
        limits=_(
            "The result depends on the discount rate chosen; public budgets often set one, and "
            "a different rate can reverse a close comparison."
        ),
        related=("total-cost-of-ownership", "fiscal-year", "capex-and-opex"),
    ),
    Term(
        slug="fiscal-year",
        name=_("Fiscal year"),
        definition=_(
            "The twelve months a budget covers; it does not always start in January. Amounts "
            "are approved per fiscal year, so a plan's costs are split by the year they fall in."
        ),
        related=("capex-and-opex", "contingency"),
    ),
    Term(
        slug="contingency",
        name=_("Contingency"),
        definition=_(
            "An amount added to an estimate for what cannot be foreseen: a retraining, a price "
            "rise, more users than planned. It is usually a percentage of the estimate."
        ),
        misconceptions=(
            Misconception(
                _("A contingency is padding that should be removed."),
                _(
                    "Compute estimates are uncertain by nature; a stated contingency is more "
                    "honest than a figure that looks precise."
                ),
            ),
        ),
        related=("fiscal-year", "total-cost-of-ownership"),
    ),
    Term(
        slug="indirect-costs",
        name=_("Indirect support costs"),
        definition=_(
            "A share added on top of a project's direct costs (and their contingency) to pay "
            "for the central services that support it without being part of it: finance, human "
            "resources, IT, premises, oversight. The rate is set by the organisation, or by the "
            "agreement with whoever funds the work."
        ),
        example=_(
            "A restaurant's bill covers the ingredients and the cook's time, but also a share "
            "of the rent, the accountant and the cleaning."
        ),
        misconceptions=(
            Misconception(
                _("Indirect costs are padding."),
                _(
                    "They pay for services the project uses; leaving them out does not remove "
                    "them, it only moves them to someone else's budget."
                ),
            ),
        ),
        related=("contingency", "total-cost-of-ownership", "budget-category"),
    ),
    Term(
        slug="budget-category",
        name=_("Budget category (UNDG)"),
        definition=_(
            "The seven kinds of cost by which UN budgets are grouped, harmonised by the UN "
            "Development Group: staff and other personnel; supplies, commodities and materials; "
            "equipment, vehicles and furniture, depreciation included; contractual services; "
            "travel; transfers and grants; general operating and other direct costs. Each cost "
            "line falls in one, so that budgets can be read and added up side by side."
        ),
        limits=_(
            "A category says what a cost is, not whether it is capital or operating "
            "expenditure: rented accelerators are contractual services and opex, bought ones "
            "are equipment and capex."
        ),
        related=("capex-and-opex", "indirect-costs", "fiscal-year"),
    ),
    Term(
        slug="cost-per-request",
        name=_("Cost per request"),
        definition=_(
            "What one answer costs in accelerator time, energy and overheads; shown also per "
            "1,000 requests, which is easier to read."
        ),
        related=("inference-compute", "gross-margin", "tokens"),
    ),
    Term(
        slug="gross-margin",
        name=_("Gross margin"),
        definition=_(
            "For a paid service: revenue minus the direct cost of serving, as a share of "
            "revenue. A service whose every request costs more than it brings in loses more "
            "the more it is used."
        ),
        related=("cost-per-request", "inference-compute"),
    ),
    Term(
        slug="pue",
        name=_("PUE (power usage effectiveness)"),
        definition=_(
            "How much electricity a data centre draws in total for each unit its computers "
            "use: cooling, power conversion and lighting come on top. 1.0 would mean no "
            "overhead; 1.1 to 1.6 is usual."
        ),
        related=("emissions",),
    ),
    Term(
        slug="energy",
        name=_("Energy"),
        definition=_(
            "The electricity the accelerators draw while they work, in kilowatt-hours (kWh), "
            "with the data centre's overhead (PUE) added. The planner works it out from each "
            "accelerator's power and the hours it runs; it leads to the electricity bill and to "
            "emissions."
        ),
        example=_(
            "A kettle's power times how long it boils: a 2 kW kettle running for half an hour "
            "uses 1 kWh."
        ),
        limits=_(
            "An accelerator does not draw its full rated power all the time, and idle servers "
            "still draw some; the figure is an estimate from rated power, not a meter reading."
        ),
        misconceptions=(
            Misconception(
                _("Energy used and emissions are the same thing."),
                _(
                    "The same kilowatt-hours can release ten times more CO2 on a grid that burns "
                    "coal than on one run on hydro, wind or nuclear power."
                ),
            ),
        ),
        related=("pue", "emissions", "accelerator-hour"),
    ),
    Term(
        slug="emissions",
        name=_("Emissions"),
        definition=_(
            "The greenhouse gases released to produce the electricity used, in kilograms of "
            "CO2 equivalent: energy used (kWh, PUE included) times the grid's carbon intensity "
            "(kg CO2e per kWh), which varies greatly between countries and hours of the day."
        ),
        misconceptions=(
            Misconception(
                _("Only training has an environmental cost."),
                _(
                    "Inference draws power for every request, month after month; at scale its "
                    "energy and emissions can pass those of training."
                ),
            ),
        ),
        related=("pue", "inference-compute", "embodied-emissions", "water"),
    ),
    Term(
        slug="embodied-emissions",
        name=_("Embodied emissions"),
        definition=_(
            "The greenhouse gases released to make the hardware: mining, chip making, assembly "
            "and transport of an accelerator and its share of the server, before it is ever "
            "switched on. They are spread over the hours of its life: an owned accelerator's "
            "over its busy hours, a rented one's by the hours you use."
        ),
        example=_(
            "Like the emissions of building a car, shared out over the kilometres it will "
            "drive: the fewer kilometres, the bigger each one's share."
        ),
        limits=_(
            "Few makers publish life-cycle figures for accelerators; where none is published "
            "the figure is left empty rather than guessed."
        ),
        related=("emissions", "accelerator-hour"),
    ),
    Term(
        slug="water",
        name=_("Water"),
        definition=_(
            "Fresh water used up by the computing: water the data centre evaporates to cool "
            "its machines (its water usage effectiveness, litres per kWh) plus water power "
            "plants consume to make the electricity (litres per kWh, which depends on the "
            "grid)."
        ),
        limits=_(
            "Averages by data centre kind and country: a site in a dry or wet place, or cooled "
            "by air alone, can be far from them. Water used to make the chips is not counted."
        ),
        related=("energy", "pue"),
    ),
    Term(
        slug="compute-thresholds",
        name=_("Compute thresholds"),
        definition=_(
            "Amounts of training compute above which a law or rule places extra duties on a "
            "model, such as the EU AI Act's presumption of systemic risk for general-purpose "
            "models trained with more than 10^25 FLOP, or the Commission's indicator of a "
            "general-purpose model: more than 10^23 FLOP for one that generates language, "
            "images or video. The catalogue lists each with its "
            "jurisdiction, status and source."
        ),
        limits=_(
            "A threshold measures effort, not risk: a model below it can still be risky, and "
            "rules change; check the current text."
        ),
        related=("training-compute", "flop", "one-third-rule"),
    ),
    Term(
        slug="one-third-rule",
        name=_("One-third rule (modifying a model)"),
        definition=_(
            "Under the European Commission's guidelines for providers of general-purpose AI "
            "models (July 2025), whoever fine-tunes or otherwise changes someone else's model "
            "becomes the provider of a new model, with the duties that brings, when the change "
            "uses more than a third of the compute that trained the original. Where the "
            "original's compute is not published, a third of 10^23 FLOP stands in for it, or a "
            "third of 10^25 FLOP when the original is a general-purpose AI model with systemic "
            "risk."
        ),
        example=_(
            "Fine-tuning a model trained with 3.8 × 10^25 FLOP using 10^22 FLOP is 0.026 "
            "percent of the original: the rule is far away."
        ),
        limits=_(
            "Compute is only an indicator: a change that alters what the model can do may "
            "count even below one third. The guidelines are not law; check the current text."
        ),
        related=("compute-thresholds", "training-compute"),
    ),
    Term(
        slug="scenario",
        name=_("Scenario"),
        definition=_(
            "One set of assumptions inside a project, for example a pilot with 15,000 requests "
            "a month against wider use with 300,000. Comparing scenarios shows what each "
            "assumption changes."
        ),
        related=("sweep",),
    ),
    Term(
        slug="sweep",
        name=_("Sweep"),
        definition=_(
            "A scenario computed over ranges of values, such as demand from 1,000 to 10 "
            "million requests a month, to see where the figures change course."
        ),
        related=("scenario",),
    ),
)
