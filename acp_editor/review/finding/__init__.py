"""Review's finding of changes: what an agent changed, found and put in the queue.

``intake`` wraps the agent's writes through us and schedules looks at the disk; ``turns``
compares checkpoints when tool calls and turns end; ``recording`` decides what a look's changes
become (a hunk per file, or groups); ``attribution`` says whose a change is when several
sessions run; ``turn_record`` keeps which files each turn changed; ``ahead`` prepares a big
workspace before its first turn. It writes into ``review.queue``, never the other way.
"""
