"""Glossary terms of serving a model: tokens, batching, memory, speed and capacity."""

from django.utils.translation import gettext_lazy as _

from apps.glossary.term import Misconception, Term

TERMS = (
    Term(
        slug="tokens",
        name=_("Tokens"),
        definition=_(
            "The pieces a language model reads and writes: a word, part of a word or a "
            "punctuation mark. In English 1,000 tokens are about 750 words; other languages and "
            "scripts often need more tokens for the same text."
        ),
        misconceptions=(
            Misconception(
                _("A token is a word."),
                _(
                    "Long or rare words split into several tokens, and the same sentence may "
                    "need more tokens in Arabic, Chinese or Russian than in English, which "
                    "changes the cost of serving it."
                ),
            ),
        ),
        related=(
            "inference-compute",
            "six-n-d",
            "kv-cache",
            "large-language-model",
            "reasoning-tokens",
        ),
    ),
    Term(
        slug="reasoning-tokens",
        name=_("Reasoning tokens"),
        definition=_(
            "The tokens a reasoning model writes for itself before it answers: it works the "
            "problem through step by step, and the user usually sees only the answer. They are "
            "written one by one like the answer, so they take the same accelerator time and "
            "make the user wait; external APIs bill them at the output price."
        ),
        example=_(
            "Like the rough working on the back of an exam paper: nobody marks it, yet it took "
            "as long to write as the answer."
        ),
        limits=_(
            "A student chooses how much rough work to write; a model's reasoning varies from "
            "request to request, and is often several times longer than the answer, which is "
            "why a range suits it."
        ),
        misconceptions=(
            Misconception(
                _("Only the answer I see is paid for."),
                _(
                    "Reasoning tokens are generated and billed like the answer: forgetting them "
                    "can make an estimate of a reasoning model's cost several times too low."
                ),
            ),
        ),
        related=("tokens", "time-per-output-token", "cost-per-request", "uncertainty-range"),
    ),
    Term(
        slug="large-language-model",
        name=_("Large language model"),
        definition=_(
            "A model trained on very large amounts of text to predict the next token, and "
            "thereby to write, translate, summarise or answer questions."
        ),
        related=("tokens", "parameters"),
    ),
    Term(
        slug="batching",
        name=_("Batching"),
        definition=_(
            "Serving several requests together on the same accelerator, so that the model's "
            "parameters, read once from memory, serve every request in the batch. It raises "
            "the number of answers per accelerator-hour, and each request may wait a little "
            "longer."
        ),
        example=_("A bus rather than a taxi: cheaper per passenger, with some waiting at stops."),
        limits=_(
            "A bus has fixed seats; a batch is limited by memory, above all by the KV cache "
            "each request needs."
        ),
        related=("kv-cache", "time-per-output-token", "utilisation"),
    ),
    Term(
        slug="kv-cache",
        name=_("KV cache"),
        definition=_(
            "The memory a model keeps for each request while it writes its answer: a summary "
            "of every token so far, so that it does not reread the whole text for each new "
            "token. It grows with the length of the text and with the number of requests "
            "served at once."
        ),
        example=_(
            "An interpreter's notes during a long speech: they save going back over everything, "
            "but the notepad fills up."
        ),
        misconceptions=(
            Misconception(
                _("If the model fits in memory, so do the users."),
                _(
                    "Each request being answered also needs its own KV cache. Long documents and "
                    "many users at once can need more memory than the model itself."
                ),
            ),
        ),
        related=("batching", "tokens", "parameters"),
    ),
    Term(
        slug="external-api",
        name=_("External model API"),
        definition=_(
            "Using a model that a vendor runs on its own accelerators, reached over the "
            "internet and paid per token read and written, instead of running a model yourself. "
            "Nothing to buy or keep on; the requests and their data leave your organisation."
        ),
        example=_(
            "Sending letters through the post rather than running your own delivery vans: you "
            "pay per letter and own nothing, but the letters pass through someone else's hands."
        ),
        misconceptions=(
            Misconception(
                _("An external API is always the cheapest way."),
                _(
                    "At low volume it usually is. At steady high volume, accelerators of your "
                    "own or rented ones can cost less per request; the decision view shows "
                    "where the costs cross."
                ),
            ),
            Misconception(
                _("What is sent to an external API stays private."),
                _(
                    "It is processed, and may be kept, by the vendor under its terms. Check the "
                    "data's classification and the vendor's terms before sending any."
                ),
            ),
        ),
        related=("tokens", "crossover", "pay-per-use-vs-always-on"),
    ),
    Term(
        slug="model-copy",
        name=_("Copy of the model (replica)"),
        definition=_(
            "The group of accelerators that together hold one whole model and answer requests "
            "with it. A large model is split across several accelerators (tensor parallel "
            "within a server, pipeline stages across servers); to serve more requests at once, "
            "the planner adds copies."
        ),
        example=_(
            "Checkout lanes in a shop: one lane may need two people, a cashier and a packer, "
            "and a busy shop opens more lanes."
        ),
        limits=_(
            "Lanes work on their own; the accelerators inside one copy exchange data at every "
            "step, which is why a copy is kept within a fast network."
        ),
        related=("batching", "kv-cache", "peak-to-average", "parameters"),
    ),
    Term(
        slug="first-token-time",
        name=_("First-token time (TTFT)"),
        definition=_(
            "How long a user waits before the first word of the answer appears: the model "
            "reads the whole request first. Longer requests and busy accelerators make it "
            "longer."
        ),
        related=("time-per-output-token", "latency", "batching"),
    ),
    Term(
        slug="time-per-output-token",
        name=_("Time per output token"),
        definition=_(
            "How long each further token of the answer takes once writing has started; it sets "
            "the reading speed the user sees. It depends mostly on how fast the accelerator's "
            "memory delivers the model's parameters."
        ),
        related=("first-token-time", "latency", "kv-cache"),
    ),
    Term(
        slug="latency",
        name=_("Latency (user speed)"),
        definition=_(
            "How long one request takes from the user's point of view: the first-token time "
            "plus the time to write the rest of the answer."
        ),
        related=("first-token-time", "time-per-output-token", "peak-to-average"),
    ),
    Term(
        slug="utilisation",
        name=_("Utilisation"),
        definition=_(
            "The share of time, or of peak speed, that an accelerator spends on useful work. "
            "Capacity is planned for a target utilisation below 100 %, so that a burst of "
            "requests does not form a queue."
        ),
        limits=_(
            "A supermarket that keeps every till busy all day has queues at every till: some "
            "slack is what keeps waiting short."
        ),
        related=("mfu", "peak-to-average", "pay-per-use-vs-always-on"),
    ),
    Term(
        slug="peak-to-average",
        name=_("Peak-to-average ratio"),
        definition=_(
            "How much busier the busiest hour is than an average hour. With a ratio of 3, "
            "capacity for the average leaves two thirds of the peak's requests waiting."
        ),
        example=_("A canteen at lunchtime against its average over the day: it is sized for noon."),
        related=("utilisation", "pay-per-use-vs-always-on", "latency"),
    ),
    Term(
        slug="pay-per-use-vs-always-on",
        name=_("Pay-per-use and always-on"),
        definition=_(
            "Two ways to pay for serving. Pay-per-use pays only for the accelerator time the "
            "requests use. Always-on keeps enough accelerators running for the peak, day and "
            "night, and pays for every hour, busy or idle."
        ),
        example=_(
            "A taxi called when needed, against a car and driver kept waiting outside all day."
        ),
        limits=_(
            "Pay-per-use needs a provider able to start capacity quickly; a first request after "
            "a quiet spell may wait while it starts."
        ),
        related=("utilisation", "peak-to-average", "capex-and-opex", "commitment"),
    ),
    Term(
        slug="commitment",
        name=_("Capacity bought on commitment"),
        definition=_(
            "Rented accelerators reserved for one or three years (a reservation, a savings plan "
            "or a committed-use discount) at a discount on the hourly price. The whole term is "
            "paid, used or not: all at its start, partly at its start and the rest monthly, or "
            "monthly. Here the capacity committed is what the peak needs; any use beyond it is "
            "paid at the hourly price."
        ),
        example=_(
            "A season ticket against buying a ticket for each journey: cheaper if you travel "
            "most days, wasted on the days you stay at home."
        ),
        limits=_(
            "Committed hours left idle are still paid. A commitment beats paying per use only "
            "when the accelerators are busy more than the share left after the discount, and "
            "beats keeping them always on only when the service lasts long enough into the "
            "term; the decision view works out both."
        ),
        misconceptions=(
            Misconception(
                _("The discount is what the organisation saves."),
                _(
                    "It saves the discount only on hours it would have paid for anyway; every "
                    "idle committed hour costs the discounted price for nothing."
                ),
            ),
        ),
        related=("pay-per-use-vs-always-on", "utilisation", "capex-and-opex", "crossover"),
    ),
)
