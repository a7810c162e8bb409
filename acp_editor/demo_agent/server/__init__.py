"""The demo agent's process: its command line and stdio, the ACP methods it serves, its prompt
turns, signing in, config options and the sessions it keeps. It hands each turn to
``scenarios`` and is the only room that knows the process exists."""
