"""Stand-ins that let real agents run offline: fake model servers and how to start each agent."""
