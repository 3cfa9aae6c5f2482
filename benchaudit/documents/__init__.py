"""Documents as a careful reviewer reads them: one model, filled by every reader.

:mod:`~benchaudit.documents.model` holds the model; the readers are
:mod:`~benchaudit.documents.markdown` (markdown-it-py),
:mod:`~benchaudit.documents.html` (the standard library's parser) and
:mod:`~benchaudit.documents.pdf` (pdfminer.six). Nothing here parses numbers.
"""
