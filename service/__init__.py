"""The referee's HTTP API (Flask): ``service.app.create_app`` builds one.

Nothing is imported here, so that a light module of this package loads
without Flask.
"""
