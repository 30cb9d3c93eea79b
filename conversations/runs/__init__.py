"""Agent runs: when they are due, where they are handed, what comes back, what the user is told.

Executing an agent is the platform's agent runtime's job; this package owns the boundary:
signed dispatches (``dispatch``), the runtime's reports (``services.run_event_apply``), the
scheduler (``scheduler``), and the outcome told in the conversation (``telling``).
"""
