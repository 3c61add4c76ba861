// Lorekeeper's only script of its own: tell the user when an HTMX request fails instead of doing nothing.
(function () {
  "use strict";
  var messages = {
    403: "You may see this, but changing it needs the configure permission.",
    404: "That is gone, or you do not have access to it. Reload the page.",
    413: "That is too large to send.",
    429: "Too many requests; wait a moment and try again."
  };
  function show(text) {
    var box = document.getElementById("htmx-error");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = false;
    window.clearTimeout(box._timer);
    box._timer = window.setTimeout(function () { box.hidden = true; }, 8000);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    show(messages[status] || "Something went wrong (HTTP " + status + "); nothing was changed. Try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    show("The server could not be reached. Check your connection and try again.");
  });
})();
