// Lorekeeper's only script of its own: tell the user when an HTMX request fails instead of doing nothing, keep
// the memory page's search box in step with the address when the browser goes back or forward, tick every row
// for "Select all on this page", switch Add a fact's member id off for a server fact, size an edited fact's text
// box to its text, let Esc cancel an edit, show an import's upload, and send the header's language choice when it
// is made.
(function () {
  "use strict";
  // The sentences are in the page (#htmx-error's data-message-*), in the page's language.
  function show(key, status) {
    var box = document.getElementById("htmx-error");
    if (!box) { return; }
    var text = box.getAttribute("data-message-" + key) || box.getAttribute("data-message-other") || "";
    box.textContent = text.replace("{status}", status || "");
    box.hidden = false;
    window.clearTimeout(box._timer);
    box._timer = window.setTimeout(function () { box.hidden = true; }, 8000);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    show([403, 404, 413, 429].indexOf(status) >= 0 ? String(status) : "other", status);
  });
  document.addEventListener("htmx:sendError", function () {
    show("unreachable");
  });
  // The header's language choice: sent as soon as it is chosen (the button is there for a browser without script).
  document.querySelectorAll("form[data-submit-on-change]").forEach(function (form) {
    form.classList.add("submits-on-change");
    form.addEventListener("change", function () { form.requestSubmit(); });
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
  // A fact's text box is as tall as its text (rows, not a style: the CSP allows no inline style), so the whole
  // fact is read before it is changed; it grows while one types, up to a screenful, then scrolls.
  function fitRows(box) {
    var least = 2;
    box.rows = least;
    while (box.scrollHeight > box.clientHeight && box.rows < 20) { box.rows += 1; }
  }
  function fitAll(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("textarea[data-autosize]").forEach(fitRows);
  }
  document.addEventListener("DOMContentLoaded", function () { fitAll(document); });
  document.addEventListener("htmx:load", function (event) { fitAll(event.detail.elt.parentNode || document); });
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("textarea[data-autosize]")) { fitRows(event.target); }
  });
  // Esc leaves an edit as Cancel does: the row comes back unchanged and its Edit button has the focus again.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !event.target.closest) { return; }
    var form = event.target.closest("form");
    var cancel = form && form.querySelector("[data-cancel]");
    if (cancel) {
      event.preventDefault();
      cancel.click();
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
