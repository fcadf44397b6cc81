"""A real SMTP server for the tests (aiosmtpd, in a thread of the test process), which keeps what
it receives and can be told to refuse: the next messages for a while (451, temporary), or an
address for good (550)."""

import email
import email.policy
import threading
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from tests.servers import free_port


class Mailbox:
    """aiosmtpd's handler: every message accepted, as the standard library parses it."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refused_addresses: set[str] = set()
        self.temporary_failures = 0  # the next so many messages get 451
        self.attempts = 0  # DATA commands answered, accepted or not
        self._lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address: str, rcpt_options) -> str:
        if address in self.refused_addresses:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        with self._lock:
            self.attempts += 1
            if self.temporary_failures:
                self.temporary_failures -= 1
                return "451 4.3.0 Mailbox busy, try again later"
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            self.messages.append(message)
        return "250 OK: queued"

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()
            self.refused_addresses.clear()
            self.temporary_failures = 0
            self.attempts = 0

    def wait_for(self, count: int, timeout_seconds: float = 60) -> list[EmailMessage]:
        """The messages once there are at least `count` of them (AssertionError after the
        timeout, with what did arrive)."""
        deadline = time.monotonic() + timeout_seconds
        while len(self.messages) < count:
            assert time.monotonic() < deadline, (
                f"{len(self.messages)} of {count} emails arrived: "
                f"{[m['Subject'] for m in self.messages]}"
            )
            time.sleep(0.05)
        return list(self.messages)


class SmtpServer:
    """The server on a free loopback port; `url` is its EMAIL_URL."""

    def __init__(self) -> None:
        self.mailbox = Mailbox()
        self.port = free_port()
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)
        self.url = f"smtp://127.0.0.1:{self.port}"

    def start(self) -> "SmtpServer":
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()


def text_and_html(message: EmailMessage) -> tuple[str, str]:
    """The plain text and the HTML body of a multipart/alternative email."""
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    return text, html
