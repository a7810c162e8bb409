"""Agents for the tests: the scripted agent with test-only switches (``scripted``), one that
misbehaves on purpose (``misbehaving``), and stand-ins that let real agents run offline (fake
model servers and how to start each agent)."""
