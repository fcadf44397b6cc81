"""`manage.py runserver`, as `make run` serves: Django's, with room for a burst of clients."""

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver
from django.core.servers.basehttp import WSGIServer


class LocalServer(WSGIServer):
    """Django's development server keeps 10 connections waiting to be accepted; 40 clients at
    once overflowed that and the kernel reset the rest. The kernel caps this at somaxconn."""

    request_queue_size = 128


class Command(StaticRunserver):
    server_cls = LocalServer
