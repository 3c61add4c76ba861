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


# Everything the panel loads comes from this site: no inline script or style, no other origin. HTMX's
# own indicator <style> is switched off (htmx-config includeIndicatorStyles=false; app.css has the
# rules) and nothing uses hx-on, so neither 'unsafe-inline' nor 'unsafe-eval' is needed. Django admin
# keeps a few style attributes, so its pages allow inline styles (never inline scripts).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
ADMIN_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


class ContentSecurityPolicyMiddleware:
    """Sets Content-Security-Policy on every HTML answer (JSON and static files do not need one)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response and response.get("Content-Type", "").startswith("text/html"):
            admin = request.path.startswith("/admin/")
            response["Content-Security-Policy"] = ADMIN_CONTENT_SECURITY_POLICY if admin else CONTENT_SECURITY_POLICY
        return response
