"""English dates as the panel has always shown them: year first, 24 hours — the communities that read the
panel in English are international, and "03/12/2026" means two different days to them. Dutch, German and
Japanese use Django's own formats for their language."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
