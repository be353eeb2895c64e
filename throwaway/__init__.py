"""Throwaway servers and processes for the tests and the benchmarks, which both start them: neither
imports the other, and the wheel ships neither (a private Redis is the product's own, ``cli.redis_server``)."""
