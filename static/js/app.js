// Lorekeeper's only script of its own: tell the user when an HTMX request fails instead of doing nothing, keep
// the memory page's search box in step with the address when the browser goes back or forward, tick every row
// for "Select all on this page", switch Add a fact's member id off for a server fact, and show an import's upload.
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
  // htmx restores a page as it was drawn, and the search box was drawn once, empty or with the search the page
  // was opened with; what was typed since lives in the box, not in what htmx kept. The list comes back with the
  // address, so the box follows the address (the view has already put the search it ran there).
  document.addEventListener("htmx:historyRestore", function () {
    var search = document.getElementById("id_q");
    if (search) { search.value = new URLSearchParams(window.location.search).get("q") || ""; }
  });
  // Add a fact: the member id means something only for a fact about one member; for a server fact the field is off
  // (and not sent), so nobody types an id that would be ignored.
  function memberField(form) {
    var member = form.querySelector("input[name=member_id]");
    var about = form.querySelector("input[name=scope]:checked");
    if (member && about) { member.disabled = about.value !== "member"; }
  }
  function memberFields(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("#fact-create").forEach(memberField);
  }
  document.addEventListener("DOMContentLoaded", function () { memberFields(document); });
  document.addEventListener("htmx:load", function (event) { memberFields(event.detail.elt.parentNode || document); });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("#fact-create");
    if (form && event.target.name === "scope") {
      memberField(form);
      if (event.target.value === "member") { form.querySelector("input[name=member_id]").focus(); }
    }
  });
  // "Select all on this page" ticks every row's box, so what will change is what is ticked; without script the
  // server takes every row of the page itself (page_numbers).
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target.matches) { return; }
    if (target.matches("[data-select-all]")) {
      document.querySelectorAll("input." + target.getAttribute("data-select-all")).forEach(function (box) {
        box.checked = target.checked;
      });
    } else if (target.matches("input.bulk-select") && !target.checked) {
      // One row unticked: no longer "all on this page", or the server would still take it.
      document.querySelectorAll("[data-select-all]").forEach(function (all) { all.checked = false; });
    }
  });
  // Import memory: a large file takes a while to send, so its bar follows the upload (the server's check then
  // runs under the same indicator); another file chosen after a check drops that check's Import button.
  document.addEventListener("htmx:xhr:progress", function (event) {
    var bar = event.target.querySelector && event.target.querySelector("progress[data-upload-progress]");
    if (bar && event.detail.lengthComputable) {
      bar.max = event.detail.total;
      bar.value = event.detail.loaded;
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("#import-form input[type=file]")) {
      document.getElementById("import-result").replaceChildren();
    }
  });
})();
