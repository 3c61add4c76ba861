"""Middleware of our own."""

from django.utils.cache import patch_vary_headers


class VaryOnHtmxMiddleware:
    """Pages answer a fragment to HTMX and a full page otherwise, so caches must key on HX-Request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response
