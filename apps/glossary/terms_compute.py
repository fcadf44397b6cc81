"""Glossary terms of compute itself: training and inference, hardware, models and serving."""

from django.utils.translation import gettext_lazy as _

from apps.glossary.term import Misconception, Term

TERMS = (
    Term(
        slug="compute",
        name=_("Compute"),
        definition=_(
            "The machine processing an AI system needs: to build or adapt a model, and then to "
            "answer every request once it is in use. People measure it as operations (FLOP), "
            "as time on processors (accelerator-hours) or, loosely, as the money spent on them; "
            "say which one you mean."
        ),
        example=_(
            "A bakery: developing a new recipe takes many trial bakes over a few weeks, and "
            "afterwards every loaf sold still needs oven time. The trial bakes are training, the "
            "daily baking is inference."
        ),
        limits=_(
            "A baker learns by judgement; a model is adjusted by billions of small numerical "
            "corrections. And an oven's time per loaf hardly changes, while a request's compute "
            "grows with the length of the text asked for."
        ),
        misconceptions=(
            Misconception(
                _("More compute always means a better AI system."),
                _(
                    "Compute lets you train a larger model or answer faster, but quality comes "
                    "from the data, the design, the testing and how well the task suits the "
                    "model. A badly designed system can burn a great deal of compute and still "
                    "give poor or unsafe answers."
                ),
            ),
            Misconception(
                _("Compute just means having a powerful chip."),
                _(
                    "The chip is the hardware; compute is the work it does over time. The same "
                    "chip delivers very different amounts of useful work depending on memory, "
                    "software, set-up and the workload."
                ),
            ),
        ),
        related=("training-compute", "inference-compute", "flop", "accelerator-hour"),
    ),
    Term(
        slug="training-compute",
        name=_("Training compute"),
        definition=_(
            "The compute spent building a model or adapting an existing one (fine-tuning): many "
            "repeated passes over example data that adjust the model's parameters. It is mostly "
            "a one-off effort, concentrated before the system goes into use, and it comes back "
            "only when the model is trained again."
        ),
        example=_(
            "Cutting a stencil for a screen-printing press: concentrated effort, tested and "
            "corrected, before the first poster is printed."
        ),
        limits=_(
            "A stencil is cut once; models are often retrained or adapted several times, and "
            "failed or experimental runs count too."
        ),
        misconceptions=(
            Misconception(
                _("Training is the whole compute bill."),
                _(
                    "Training is often the largest single item at the start, but inference "
                    "recurs every month; with wide use it overtakes training (see break-even)."
                ),
            ),
        ),
        related=("inference-compute", "six-n-d", "mfu", "break-even"),
    ),
    Term(
        slug="inference-compute",
        name=_("Inference compute"),
        definition=_(
            "The compute spent each time the trained model is used: a request goes in, an answer "
            "comes out. Each answer costs little, but the cost repeats with every request, so it "
            "grows with use and becomes a running cost."
        ),
        example=_(
            "The press time for each poster once the stencil exists: ten posters take little "
            "time, thousands keep the press busy, and a queue forms when everyone wants one at "
            "once."
        ),
        limits=_(
            "Posters are all alike; requests are not. A long document to translate costs many "
            "times what a short sentence costs, and answers are written one token at a time."
        ),
        misconceptions=(
            Misconception(
                _("Once a model is trained, compute is no longer an issue."),
                _(
                    "Every answer still needs compute. For a service that many people use, the "
                    "recurring inference cost can become the largest cost, and lack of capacity "
                    "at busy times makes people wait."
                ),
            ),
        ),
        related=("training-compute", "tokens", "batching", "break-even", "first-token-time"),
    ),
    Term(
        slug="flop",
        name=_("FLOP and FLOP/s"),
        definition=_(
            "A FLOP is one floating-point operation, a single multiplication or addition of "
            "numbers with decimals; it counts work. FLOP/s (operations per second) is a speed: "
            "how many such operations a processor can do each second. A training run is "
            "measured in FLOP, a chip in FLOP/s."
        ),
        example=_(
            "Like kilometres and kilometres per hour: a journey's length against a car's top "
            "speed. Dividing one by the other gives a time, if the car could keep its top speed."
        ),
        limits=_(
            "Chips rarely keep their top speed: they wait for data from memory. That is why the "
            "planner applies a utilisation (MFU) to the peak."
        ),
        misconceptions=(
            Misconception(
                _("FLOP and FLOP/s are the same thing."),
                _(
                    "One is an amount, the other a rate. 10^25 FLOP is a quantity of work; "
                    "1,000 TFLOP/s (10^15 FLOP/s) is how fast a chip can do it at best."
                ),
            ),
            Misconception(
                _("A chip's advertised FLOP/s is what it delivers."),
                _(
                    "Data sheets give peak figures, sometimes with sparsity that doubles them. "
                    "Real workloads reach a fraction of the dense peak; the catalogue lists "
                    "dense figures only."
                ),
            ),
        ),
        related=("six-n-d", "mfu", "precision", "petaflop-s-day"),
    ),
    Term(
        slug="petaflop-s-day",
        name=_("Petaflop/s-day"),
        definition=_(
            "A unit of work: what a processor doing 10^15 operations a second for a whole day "
            "does, that is 8.64 × 10^19 FLOP. Research papers often report training compute in "
            "it."
        ),
        related=("flop",),
    ),
    Term(
        slug="accelerator",
        name=_("Accelerator"),
        definition=_(
            "A processor built for the arithmetic AI models need, many multiplications at once: "
            "a graphics processor (GPU), or a chip designed for AI such as a TPU. The catalogue "
            "lists each one's peak speed per precision, its memory and its power."
        ),
        misconceptions=(
            Misconception(
                _("The newest accelerator is always the cheapest choice."),
                _(
                    "A faster chip costs more per hour. What matters is the cost of the work: "
                    "price per hour divided by useful work per hour, and whether the model fits "
                    "in its memory."
                ),
            ),
        ),
        related=("accelerator-hour", "flop", "parameters"),
    ),
    Term(
        slug="accelerator-hour",
        name=_("Accelerator-hour"),
        definition=_(
            "One accelerator busy for one hour. Eight accelerators for one hour are eight "
            "accelerator-hours, and so is one accelerator for eight hours. Rented capacity is "
            "priced per accelerator-hour."
        ),
        example=_(
            "Like person-hours on a building site: four workers for a day is 32 person-hours, "
            "whatever the calendar says."
        ),
        limits=_(
            "Eight accelerators do not always finish eight times sooner: they must exchange "
            "data, and some of the time is lost to waiting (see goodput)."
        ),
        misconceptions=(
            Misconception(
                _("GPU-hours are the whole cost."),
                _(
                    "Accelerator time is one line. Energy, cooling, storage, networking, "
                    "engineers' time, licences and support all come on top; total cost of "
                    "ownership counts them all."
                ),
            ),
            Misconception(
                _("8 GPUs for 1 hour means 1 hour of cost."),
                _(
                    "It means 8 accelerator-hours of cost and 1 hour of waiting (wall-clock "
                    "time). The planner always shows both."
                ),
            ),
        ),
        related=("wall-clock", "total-cost-of-ownership", "accelerator"),
    ),
    Term(
        slug="wall-clock",
        name=_("Wall-clock time"),
        definition=_(
            "The time that passes on a clock from start to finish, however many accelerators "
            "work in parallel: accelerator-hours divided by the number of accelerators."
        ),
        related=("accelerator-hour", "goodput"),
    ),
    Term(
        slug="mfu",
        name=_("MFU (model FLOP utilisation)"),
        definition=_(
            "The share of an accelerator's peak speed that a training run actually turns into "
            "model work. Well-tuned large runs reach about 30 to 50 %; the rest is lost waiting "
            "for memory and for other accelerators."
        ),
        example=_(
            "A delivery van's top speed against its average speed over a day in town: traffic "
            "lights and loading take their share."
        ),
        misconceptions=(
            Misconception(
                # xgettext:no-python-format
                _("A run uses 100 % of the chip."),
                _(
                    # xgettext:no-python-format
                    "Planning with 100 % underestimates the hours two- or threefold. Without a "
                    "measurement of your own, the planner's default 0.25 is a cautious choice: "
                    "the geometric mean of what four published runs reached (Llama 3.1 8B, 70B "
                    "and 405B, DeepSeek-V3; see the calibration table). Small models reach less: "
                    "about 0.14 at 8 billion parameters."
                ),
            ),
        ),
        related=("flop", "goodput", "utilisation"),
    ),
    Term(
        slug="goodput",
        name=_("Goodput"),
        definition=_(
            "The share of the time paid for that produces useful progress. Crashes, restarts "
            "from the last checkpoint and waiting for repairs take the rest. 1 means no time "
            "lost."
        ),
        limits=_(
            "Goodput covers lost time, MFU covers slow time: a run can have both problems, and "
            "the planner multiplies the two."
        ),
        related=("mfu", "wall-clock"),
    ),
    Term(
        slug="six-n-d",
        name=_("The 6·N·D rule"),
        definition=_(
            "A rule of thumb for the work of training a model: about 6 operations per parameter "
            "(N) per training token (D), 2 for the forward pass and 4 for the backward pass. A "
            "model of 7 billion parameters trained on 2 trillion tokens needs about 6 × 7×10^9 "
            "× 2×10^12 ≈ 8.4×10^22 FLOP."
        ),
        limits=_(
            "It is an estimate: it leaves out attention over long texts and the extra work of "
            "some techniques, and for a mixture-of-experts model N is the parameters active per "
            "token, not the total."
        ),
        related=("parameters", "tokens", "flop", "mixture-of-experts"),
    ),
    Term(
        slug="parameters",
        name=_("Parameters"),
        definition=_(
            "The numbers inside a model that training adjusts; their count is the model's size "
            "(for example 7 billion). Each must be stored in memory while the model runs, so "
            "size decides which accelerators can hold it."
        ),
        misconceptions=(
            Misconception(
                _("A bigger model is always a better one."),
                _(
                    "A smaller model trained on good data, or adapted to the task, often does as "
                    "well at a fraction of the cost per answer."
                ),
            ),
        ),
        related=("precision", "six-n-d", "mixture-of-experts"),
    ),
    Term(
        slug="mixture-of-experts",
        name=_("Mixture of experts"),
        definition=_(
            "A model design in which each token goes through only a few of many sub-networks "
            "(the experts). Its compute follows the parameters active per token; its memory "
            "follows all of them."
        ),
        related=("parameters", "six-n-d"),
    ),
    Term(
        slug="precision",
        name=_("Precision"),
        definition=_(
            "How many bits each number takes: 32 (FP32), 16 (BF16, FP16), 8 (FP8, INT8) or "
            "fewer. Fewer bits mean less memory and faster arithmetic, at some risk to accuracy."
        ),
        example=_(
            "Like rounding prices to the nearest cent, or to the nearest franc: quicker to add "
            "up, less exact."
        ),
        related=("parameters", "flop", "accelerator"),
    ),
)
