"""The language server as the rest of the editor side uses it: pygls underneath (``server``), the
narrow channel the other parts are given (``channel``), what the editor declared (``features``),
log lines to the editor (``lsp_log``), how a handler's error becomes an answer (``handling``) and
one change notification per frame (``coalesce``)."""
