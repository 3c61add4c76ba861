"""`{% capture as name %}…{% endcapture %}`: what the block renders is kept in a variable instead of printed, so that a
sentence marked for translation can hold a piece another template renders (an include) as one of its variables:

    {% capture as retraction %}{% include "memory/_fact_retraction_line.html" %}{% endcapture %}
    {% blocktranslate with retraction=retraction %}It was {{ retraction }}.{% endblocktranslate %}

The block is rendered with autoescaping as usual, so its output is safe HTML and is not escaped a second time."""

from django import template
from django.utils.safestring import SafeString

register = template.Library()


class CaptureNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name: str):
        self.nodelist = nodelist
        self.name = name

    def render(self, context) -> str:
        context[self.name] = SafeString(self.nodelist.render(context))
        return ""


@register.tag
def capture(parser, token):
    bits = token.split_contents()
    if len(bits) != 3 or bits[1] != "as":
        raise template.TemplateSyntaxError("Write {% capture as name %}…{% endcapture %}.")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[2])
