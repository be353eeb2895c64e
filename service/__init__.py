"""The referee's HTTP API (Flask): ``service.app.create_app`` builds one.

Nothing is imported here, so that light modules such as ``service.config``
load without Flask (every ``scoundrel`` command reads the configuration).
"""
