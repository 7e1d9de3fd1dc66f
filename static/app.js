/* minimax-lab: the little JavaScript the pages need, on top of htmx.
   Everything works without it (links and forms); this adds keys and "copy link".
   Event delegation on document, so content swapped in by htmx needs no re-binding. */
(function () {
  "use strict";

  function typing(target) {
    return target && (target.isContentEditable ||
      /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
  }

  function press(selector) {
    var el = document.querySelector(selector);
    if (el && !el.disabled) { el.click(); return true; }
    return false;
  }

  function help() {
    var dialog = document.getElementById("help");
    if (!dialog) return false;
    if (dialog.open) { dialog.close(); } else { dialog.showModal(); }
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (event.key === "?") { if (help()) event.preventDefault(); return; }
    var game = document.querySelector("#game");
    if (!game) return;
    var key = event.key, done = false;
    if (/^[1-9]$/.test(key)) {
      done = game.dataset.game === "nim"
        ? press('#game button[data-take="' + key + '"]')
        : press('#game button[data-col="' + key + '"]');
    } else if (key === "ArrowLeft") {
      done = press('#game [data-key="prev"]');
    } else if (key === "ArrowRight") {
      done = press('#game [data-key="next"]');
    } else if (key === "End") {
      done = press('#game [data-key="live"]');
    } else if (key === "Home") {
      done = press('#game [data-nav="0"]');
    } else if (key === " ") {
      done = press('[data-key="step"]') || press('[data-key="step-start"]');
    } else if (key === "Backspace") {
      done = press('[data-key="step-back"]');
    } else if (key === "t") {
      done = press('#game [data-key="tree"]');
    } else if (key === "u") {
      done = press('#game [data-key="undo"]');
    }
    if (done) event.preventDefault();
  });

  // A tree is laid out with its root centred: show the middle of a wide tree first.
  function centreTrees(root) {
    (root || document).querySelectorAll(".tree-scroll").forEach(function (box) {
      box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { centreTrees(); });
  document.addEventListener("htmx:afterSwap", function (event) { centreTrees(event.detail.elt); });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-help]")) { help(); return; }
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var link = button.dataset.copy;
    var field = document.querySelector(".link-field");
    var done = function () {
      button.dataset.label = button.dataset.label || button.textContent;
      button.textContent = button.dataset.copied || "Copied";
      setTimeout(function () { button.textContent = button.dataset.label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link).then(done, function () {
        if (field) { field.select(); }
      });
    } else if (field) {
      field.focus(); field.select();
      try { document.execCommand("copy"); done(); } catch (e) { /* the field stays selected */ }
    }
  });
  // The depth field's bounds follow the chosen algorithm (minimax goes less deep than
  // alpha-beta): the server checks the same bounds, MAX_DEPTH in web/params.py.
  document.addEventListener("change", function (event) {
    if (event.target.name !== "algo") return;
    var depth = event.target.form && event.target.form.querySelector("[data-max-depth]");
    if (!depth) return;
    var most = JSON.parse(depth.dataset.maxDepth)[event.target.value];
    if (!most) return;
    depth.max = most;
    if (Number(depth.value) > most) depth.value = most;
  });
})();
