"""What the demo agent does in a prompt turn, chosen by the prompt's words (``words``) and kept
by what each touches: files, shell commands, questions to the user, the editor's buffers, what
a client opts in to, a subagent. Scenarios talk to the client only through ``turn``; nothing
here knows the process or its methods."""
