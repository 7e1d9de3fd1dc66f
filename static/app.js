/* minimax-lab: the little JavaScript the pages need, on top of htmx.
   Everything works without it (links and forms); this adds keys and "copy link".
   Event delegation on document, so content swapped in by htmx needs no re-binding. */
(function () {
  "use strict";
  var MARGIN = 12;      // px kept between a node or line brought into view and the edge

  function typing(target) {
    return target && (target.isContentEditable ||
      /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
  }

  function press(selector) {
    var el = document.querySelector(selector);
    if (el && !el.disabled) { el.click(); return true; }   // aria-disabled: refused visibly below
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
      done = press('#game button[data-move="' + key + '"]');   // the move of that number
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
    } else if (key === "v") {             // class mode (the teacher's bar): the vote
      done = press('.class-bar [data-key="class-vote"]');
    } else if (key === "p") {
      done = press('.class-bar [data-key="class-play"]');
    } else if (key === "r") {
      done = press('.class-bar [data-key="class-reveal"]');
    }
    if (done) event.preventDefault();
  });

  // A tree is laid out with its root centred: show the middle of a wide tree first. Step by
  // step, the tree stays where it was scrolled to, unless the node of the new step is out of
  // sight across: then the node is centred.
  var treeScrolled = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var box = document.querySelector("#tree-panel .tree-scroll");
    treeScrolled = box ? box.scrollLeft : null;
  });
  function centreTrees(root) {
    (root || document).querySelectorAll(".tree-scroll").forEach(function (box) {
      var node = box.querySelector(".tnode.current");
      if (!node) {
        box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
        return;
      }
      if (treeScrolled !== null) { box.scrollLeft = treeScrolled; }
      var b = box.getBoundingClientRect(), n = node.getBoundingClientRect();
      if (n.left < b.left + MARGIN || n.right > b.right - MARGIN) {
        box.scrollLeft += (n.left + n.width / 2) - (b.left + b.width / 2);
      }
    });
  }

  // Step by step, the node being explained and the line of the algorithm it executes stay in
  // view at every step, without the teacher scrolling: the line first (the stepper that holds
  // it sticks to the top of the window when there is room, app.css), then the node, in the
  // window below the stepper (across, centreTrees keeps it in its tree's scroll box).
  function keepStepInView() {
    var panel = document.getElementById("tree-panel");
    var stepper = panel && panel.querySelector(".stepper");
    if (!stepper || !stepper.querySelector(".step-count")) return;      // not step by step
    var line = panel.querySelector(".algo-lines .now") || panel.querySelector(".step-event");
    if (line) {
      line.scrollIntoView({ block: "nearest", inline: "nearest" });
      var l = line.getBoundingClientRect();
      if (l.bottom > window.innerHeight - MARGIN) { window.scrollBy(0, l.bottom - window.innerHeight + MARGIN); }
    }
    var node = panel.querySelector(".tnode.current");
    if (!node) return;                                     // step 0: no node entered yet
    var sticky = getComputedStyle(stepper).position === "sticky";
    for (var pass = 0; pass < 3; pass++) {
      var r = node.getBoundingClientRect(), s = stepper.getBoundingClientRect();
      var top = MARGIN + (sticky ? s.bottom : 0), bottom = window.innerHeight - MARGIN, d = 0;
      if (r.bottom > bottom) {
        d = r.bottom - bottom;
        // scrolled down by d, a sticky stepper ends at the top of the window, as tall as it is
        var after = MARGIN + (sticky ? Math.max(s.height, s.bottom - d) : 0);
        if (r.top - d < after) { d = r.top - after; }      // no room for all of it: its top
      } else if (r.top < top) {
        d = r.top - top;
      }
      if (Math.abs(d) < 1) break;
      window.scrollBy(0, d);
    }
  }
  document.addEventListener("DOMContentLoaded", function () { centreTrees(); keepStepInView(); });

  // A teacher link (/class/<code>/teach#key=...): its key never goes to the server in the URL;
  // it fills the form's field, and leaves the address bar (and the history) at once.
  document.addEventListener("DOMContentLoaded", function () {
    var field = document.querySelector("[data-key-from-link]");
    var found = /[#&]key=([^&]+)/.exec(window.location.hash);
    if (!field || !found) return;
    field.value = decodeURIComponent(found[1]);
    history.replaceState(null, "", window.location.pathname + window.location.search);
  });
  document.addEventListener("htmx:afterSwap", function (event) { centreTrees(event.detail.elt); });
  document.addEventListener("htmx:afterSettle", keepStepInView);

  // Projector mode's drawer (the settings and the move list, over the page): its close
  // button, and Escape, close it.
  function closeDrawers() {
    var done = false;
    document.querySelectorAll("details.proj-drawer[open]").forEach(function (d) {
      d.open = false; done = true;
      var summary = d.querySelector("summary");
      if (summary) { summary.focus(); }
    });
    return done;
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && closeDrawers()) { event.preventDefault(); }
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-close-drawer]")) { closeDrawers(); return; }
    if (event.target.closest("[data-help]")) { help(); return; }
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var link = button.dataset.copy;
    var field = document.querySelector(".link-field");
    var done = function () {
      button.dataset.label = button.dataset.label || button.textContent;
      button.textContent = button.dataset.copied || "✓";   // the page gives the word, translated
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
  // While the AI thinks (or while our own move is on its way), a move is refused visibly:
  // the buttons are aria-disabled (so focus can stay on them) and a click shows why.
  var MOVES = "#game button[data-move]";
  document.addEventListener("click", function (event) {
    var button = event.target.closest(MOVES);
    if (!button || button.getAttribute("aria-disabled") !== "true") return;
    event.preventDefault();
    event.stopPropagation();
    var note = document.querySelector("#game .wait-note");
    if (note) { note.hidden = false; }
    var live = document.getElementById("live");
    if (live && note) { live.textContent = note.textContent; }
  }, true);

  // What had the focus before a swap, to give it back after (same move, node, control).
  var focused = null;
  function describe(el) {
    if (!el || el === document.body) return null;
    var node = el.closest("[data-path]");
    if (el.dataset.move) return '#game [data-move="' + el.dataset.move + '"]';
    if (node) return '[data-path="' + node.dataset.path + '"]';
    if (el.dataset.key) return '[data-key="' + el.dataset.key + '"]';
    return null;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    focused = describe(document.activeElement);
    var form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (form && form.querySelector("button[data-move]")) {
      document.querySelectorAll(MOVES).forEach(function (b) { b.setAttribute("aria-disabled", "true"); });
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    // one live region, outside the swapped part: the new status is read out once
    var status = document.getElementById("status"), live = document.getElementById("live");
    var asked = event.detail.requestConfig && event.detail.requestConfig.elt;
    var hints = asked && asked.closest && asked.closest("#hints") &&
      document.querySelector("#hints [data-announce]");
    if (hints && live) {            // the exact outcomes just arrived: read them out
      live.textContent = hints.dataset.announce;
    } else if (status && live && live.textContent !== status.textContent.trim()) {
      live.textContent = status.textContent.trim();
    }
    // focus stays where the person was
    if (focused && (!document.activeElement || document.activeElement === document.body)) {
      var again = document.querySelector(focused);
      if (again && again.matches("[data-path]")) { again = again.querySelector("a") || again; }
      if (again && !again.disabled) { again.focus({ preventScroll: true }); }
    }
    // the tree just opened: bring it into view (it opens below the board on a laptop)
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var panel = document.getElementById("tree-panel");
    if (elt && elt.dataset && elt.dataset.key === "tree" && panel) {
      panel.scrollIntoView({ block: "start", behavior: "auto" });
    }
  });

  // Class mode, the teacher's page: after every change of the board (a move, undo, settings,
  // a tree step: each pushes the page's new link), tell the class where the board is, so the
  // students' pages follow. Only the latest link matters; on a failure (a worker restarting)
  // it is sent again, waiting longer each time, so no move is lost.
  var syncUrl = document.body && document.body.dataset.classSync;
  var pending = null, sending = false, delay = 500;
  function sendSync() {
    if (!pending) { sending = false; return; }
    var link = pending;
    pending = null;
    sending = true;
    fetch(syncUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ link: link }).toString()
    }).then(function (response) {
      if (response.status >= 500) { throw new Error(String(response.status)); }
      delay = 500;
      sendSync();
    }).catch(function () {
      if (!pending) { pending = link; }
      setTimeout(sendSync, delay);
      delay = Math.min(delay * 2, 8000);
    });
  }
  function sync() {
    if (!syncUrl) return;
    pending = location.pathname + location.search;
    if (!sending) sendSync();
  }
  sync();
  document.addEventListener("htmx:pushedIntoHistory", sync);
  document.addEventListener("htmx:replacedInHistory", sync);

  // Links to this very page in another language or mode (data-here="proj=0") follow the
  // address bar as htmx changes it: leaving projector mode after ten steps keeps the tenth.
  function followAddress() {
    document.querySelectorAll("a[data-here]").forEach(function (a) {
      var url = new URL(window.location.href);
      new URLSearchParams(a.dataset.here).forEach(function (value, name) {
        url.searchParams.set(name, value);
      });
      a.href = url.pathname + url.search + url.hash;
    });
  }
  document.addEventListener("htmx:pushedIntoHistory", followAddress);
  document.addEventListener("htmx:replacedInHistory", followAddress);

  // A class page says whether its live stream is connected (htmx's SSE extension reconnects
  // by itself; the page shows it is trying).
  function liveState(event, state) {
    var box = event.target.closest && event.target.closest("[data-live]");
    if (box) { box.dataset.live = state; }
  }
  document.addEventListener("htmx:sseOpen", function (event) { liveState(event, "on"); });
  document.addEventListener("htmx:sseError", function (event) { liveState(event, "off"); });
})();
