"""What the editor is shown of the agent: the front end the agent side talks to (``frontend``) and
the parts it hands each kind of news to: follow-along, diff previews, progress, terminal output,
questions and how they are worded, elicitation, transcripts, replies, the agent's status."""
