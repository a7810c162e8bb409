"""Helpers shared by the test suites: npm packages pinned and cached for offline reuse."""
