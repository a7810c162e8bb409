"""What we ask of the agent: opening sessions (``opening``) with their set-up calls
(``setup_calls``, their ``mcp_servers``), signing in (``signing_in``), prompt turns
(``prompt_turns``) and, on v1, the prompts that wait for theirs (``prompt_queue``). Imports
point to ``agent/serving/`` (the handlers a session is registered with), ``agent/``'s top and
``agent/link/``."""
