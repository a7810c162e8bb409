"""The ACP agent registry: listing its agents and running one (``entries``: the format;
``fetch``: fetching and caching it; ``install``: the command that runs an agent here)."""
