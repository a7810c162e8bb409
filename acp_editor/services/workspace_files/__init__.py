"""The workspace's files for completion (``acp/findFiles``): listed as git sees them (ignored
files left out) and matched against what the user typed after ``@``."""
