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
    if (!el || el.disabled) return false;                  // aria-disabled: refused visibly below
    el.click();              // a fragment htmx has not wired yet is wired by the click (wireFirst)
    return true;
  }

  // htmx wires the links and forms of a fragment it swaps in (a live stream's drawing, a
  // request's answer) only when the swap settles, 20 ms on: a tap or a key before that clicked
  // a bare link or form, which the browser followed as a full page load (a phone jumped to the
  // top, a class exercise's verdict was not brought into view; the reveal's no-script redirect
  // lost the projector's tree step). htmx 2 offers nothing else than a settle of 0 for all
  // swaps, which would drop the settling transitions: so a click or submit inside a fragment
  // not settled yet (htmx's "htmx-added" class is on it until then) wires it first, on its way
  // down to the element (capture), as htmx does at the settle, which then finds it done; htmx's
  // own listeners, added now, then take the click or submit as they would a moment later.
  function wireFirst(event) {
    var added = window.htmx && event.target.closest &&
      event.target.closest("." + htmx.config.addedClass);
    if (added) { htmx.process(added); }
  }
  document.addEventListener("click", wireFirst, true);
  document.addEventListener("submit", wireFirst, true);

  // Space: the first step link, the class bar's "Play the step" (to the step that shows a
  // revealed question's answer, data-step-to) before the tree's "forward", unless the page is
  // at that step or past it already: the bar is drawn by the server, which learns of the
  // teacher's steps by a request of its own (sync, below), so a bar drawn just after a step
  // may still offer it, and Space went back to that step instead of on (a loaded laptop,
  // 07:05 on 2026-11-28).
  function stepOn() {
    var at = new URLSearchParams(window.location.search).get("step");
    var link = Array.prototype.find.call(document.querySelectorAll('[data-key="step"]'), function (a) {
      return !(a.dataset.stepTo && at !== null && Number(at) >= Number(a.dataset.stepTo));
    });
    if (!link || link.disabled) return false;
    link.click();
    return true;
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
      done = stepOn() || press('[data-key="step-start"]');
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
  // (not for the class bar's redraws, a ballot or a follower arriving on the teacher's
  // stream: the page then stays where it is, the vote in view if the teacher brought it there)
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.closest && event.target.closest(".class-bar")) return;
    keepStepInView();
  });

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

  // The AI's move is asked by the page itself (its .ai-trigger, on load), so a click that
  // replaces the game meanwhile (a pause, an undo, a new game) raced it: on a busy laptop the
  // AI's answer came back after the pause's and was drawn over it, and AI against AI played
  // on. The click wins whatever order the server answers in: the AI's request on its way is
  // called off when the click's request leaves, and the AI's move is not asked while such a
  // request is awaited (the page it brings says whether the AI is to move).
  var gameRequests = [], aiRequests = [], calledOff = new WeakSet();
  function onItsWay(xhr) { return xhr.readyState > 0 && xhr.readyState < 4; }
  function replacesGame(detail) {
    var game = document.getElementById("game");
    return game && detail.target === game;
  }
  function isAiTrigger(elt) { return elt.classList && elt.classList.contains("ai-trigger"); }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isAiTrigger(event.detail.elt) || !replacesGame(event.detail)) return;
    gameRequests = gameRequests.filter(onItsWay);
    if (gameRequests.length) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSend", function (event) {
    var detail = event.detail;
    if (!replacesGame(detail)) return;
    if (isAiTrigger(detail.elt)) { aiRequests.push(detail.xhr); return; }
    gameRequests = gameRequests.filter(onItsWay).concat([detail.xhr]);
    aiRequests.filter(onItsWay).forEach(function (xhr) { calledOff.add(xhr); xhr.abort(); });
    aiRequests = [];
  });

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

  // Class mode turned on: the class starts from the page as it is now, its tree's step
  // included (a step taken since the page came pushed its link; the form's was drawn before).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("class-start")) return;
    var field = form.querySelector('input[name="link"]');
    if (field) { field.value = location.pathname + location.search; }
  }, true);

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

  // ---- Class mode, live: streams that recover, requests that never leave a page stuck ----

  // A class page's live stream (htmx's SSE extension makes its event sources here). The
  // server sends a "beat" every few seconds (its data: the period in ms); a stream that hears
  // nothing for two periods is taken for stalled (a phone asleep, Wi-Fi gone half-open: the
  // connection looks open and brings nothing) and replaced by a new one, as is a stream that
  // drops, within a few seconds whatever happened before (the extension's own backoff waited
  // up to a minute). The new stream starts with the current board. The page shows
  // "reconnecting…" meanwhile (the extension's htmx:sseError / htmx:sseOpen events).
  var liveSources = [];
  function LiveSource(url, options) {
    this.url = url; this.options = options; this.listeners = [];
    this.closed = false; this.period = 3000; this.attempts = 0; this.heard = Date.now();
    this.onopen = null; this.onerror = null;
    liveSources.push(this);
    this.connect();
  }
  Object.defineProperty(LiveSource.prototype, "readyState", {
    get: function () {      // never CLOSED unless closed on purpose: the extension does not retry
      if (this.closed) return 2;
      return this.es && this.es.readyState === 1 ? 1 : 0;
    }
  });
  LiveSource.prototype.connect = function () {
    var self = this, es = new EventSource(this.url, this.options);
    this.es = es;
    this.listeners.forEach(function (l) { es.addEventListener(l.type, l.wrapped); });
    es.addEventListener("beat", function (event) {
      var ms = parseInt(event.data, 10);
      if (ms > 0) { self.period = ms; }
      self.alive();
    });
    es.onopen = function (event) {
      if (es !== self.es) return;
      self.attempts = 0;
      self.alive();
      if (self.onopen) { self.onopen(event); }
    };
    es.onerror = function (event) {
      if (es !== self.es || self.closed) return;
      if (self.onerror) { self.onerror(event); }          // the page says "reconnecting…"
      if (es.readyState === 2) { self.again(); }          // refused (503, 404): try anew
    };
    this.alive();
  };
  LiveSource.prototype.alive = function () {
    var self = this;
    this.heard = Date.now();
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(function () { self.stalled(); }, 2 * this.period + 2000);
  };
  LiveSource.prototype.stalled = function () {
    if (this.closed) return;
    if (this.onerror) { this.onerror({ type: "stalled" }); }
    this.again();
  };
  LiveSource.prototype.again = function () {
    var self = this;
    if (this.closed) return;
    this.es.close();
    clearTimeout(this.watchdog);
    clearTimeout(this.retryTimer);
    this.attempts += 1;
    // soon, then every few seconds; spread out, so that a class's phones do not all come
    // back to a restarted server in the same instant
    var wait = Math.min(1000 * this.attempts, 4000) * (0.5 + Math.random() / 2);
    this.retryTimer = setTimeout(function () { if (!self.closed) self.connect(); }, wait);
  };
  LiveSource.prototype.close = function () {
    this.closed = true;
    clearTimeout(this.watchdog);
    clearTimeout(this.retryTimer);
    if (this.es) { this.es.close(); }
    liveSources = liveSources.filter(function (s) { return s !== this; }, this);
  };
  LiveSource.prototype.addEventListener = function (type, fn) {
    var self = this;
    var l = { type: type, fn: fn, wrapped: function (event) { self.alive(); fn(event); } };
    this.listeners.push(l);
    this.es.addEventListener(type, l.wrapped);
  };
  LiveSource.prototype.removeEventListener = function (type, fn) {
    var es = this.es;
    this.listeners = this.listeners.filter(function (l) {
      if (l.type === type && l.fn === fn) { es.removeEventListener(type, l.wrapped); return false; }
      return true;
    });
  };
  if (window.htmx && window.EventSource) {
    htmx.createEventSource = function (url) { return new LiveSource(url, { withCredentials: true }); };
  }
  // a phone woken up: a stream silent for longer than its watchdog allows is replaced now
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    liveSources.forEach(function (s) {
      if (!s.closed && Date.now() - s.heard > 2 * s.period + 2000) { s.stalled(); }
    });
  });

  function liveState(event, state) {
    var box = event.target.closest && event.target.closest("[data-live]");
    if (!box) return;
    if (state === "off") {
      state = box.dataset.live === "connecting" ? "connecting" : "reconnecting";
    }
    box.dataset.live = state;
  }
  document.addEventListener("htmx:sseOpen", function (event) { liveState(event, "on"); });
  document.addEventListener("htmx:sseError", function (event) { liveState(event, "off"); });

  // A request with no answer (the server restarting, the network gone) or a server error
  // never leaves the page stuck: the move buttons work again (they were marked busy when the
  // request left) and a note says it was not sent. A ballot is sent again by itself (below).
  function notSent(show) {
    var note = document.getElementById("not-sent");
    if (note) { note.hidden = !show; }
    if (show) {
      document.querySelectorAll(MOVES).forEach(function (b) { b.removeAttribute("aria-disabled"); });
      var live = document.getElementById("live");
      if (live && note) { live.textContent = note.textContent.trim(); }
    }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest(".vote-form")) return;       // its own note
    if (calledOff.has(event.detail.xhr)) return;        // the AI's move, called off by a click
    notSent(!event.detail.successful);
  });
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest(".vote-form")) return;
    notSent(true);
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-close-not-sent]")) { notSent(false); }
  });

  // A student's ballot that got no answer is sent again, a few times over about 20 s (a
  // server restart), saying so; a second ballot of the same round is never counted twice
  // (the server keeps the first), so sending again is safe. Then, if still no answer, the
  // page says it was not sent, and the buttons are there to tap again.
  var ballot = { choice: null, tries: 0, timer: null };
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".vote-form button[name=choice]");
    if (button) { ballot.choice = button.value; ballot.tries = 0; clearTimeout(ballot.timer); }
  });
  function ballotNote(kind) {
    var note = document.querySelector("#class-vote .send-note");
    if (!note) return;
    note.textContent = note.dataset[kind] || "";
    note.hidden = false;
    note.classList.toggle("error", kind === "failed");
  }
  function ballotFailed(event) {
    var elt = event.detail.elt;
    if (!elt || !elt.closest || !elt.closest(".vote-form") || !ballot.choice) return;
    ballot.tries += 1;
    if (ballot.tries > 8) { ballotNote("failed"); return; }
    ballotNote("trying");
    clearTimeout(ballot.timer);
    ballot.timer = setTimeout(function () {
      var form = document.querySelector("#class-vote .vote-form");
      if (!form) return;                      // counted meanwhile, or the vote closed
      htmx.ajax("POST", form.getAttribute("hx-post"), {
        source: form, target: "#class-vote", swap: "innerHTML",
        values: { choice: ballot.choice }
      });
    }, Math.min(800 * ballot.tries, 3000));
  }
  document.addEventListener("htmx:afterRequest", function (event) {     // no answer, or a 5xx
    if (!event.detail.successful) { ballotFailed(event); }
  });

  // The teacher's bar: the nicknames collapsed to their count, a click on it shows them
  // (kept across the live updates: the list is swapped inside the same element).
  function collapseNames(root) {
    (root || document).querySelectorAll(".bar-names:not([data-seen])").forEach(function (p) {
      p.setAttribute("data-seen", "");
      p.setAttribute("data-collapsed", "");
    });
    document.querySelectorAll(".bar-names").forEach(function (p) {
      var b = p.querySelector("[data-names-toggle]");
      if (b) { b.setAttribute("aria-expanded", p.hasAttribute("data-collapsed") ? "false" : "true"); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { collapseNames(); });
  document.addEventListener("htmx:afterSwap", function () { collapseNames(); });
  document.addEventListener("click", function (event) {
    var b = event.target.closest(".bar-names [data-names-toggle]");
    if (!b) return;
    b.closest(".bar-names").toggleAttribute("data-collapsed");
    collapseNames();
  });

  // A class exercise's tree on a phone fits the width; a tap shows it at full size.
  document.addEventListener("click", function (event) {
    var tree = event.target.closest("[data-fit-tree]");
    if (tree) { tree.classList.toggle("zoomed"); }
  });

  // The teacher's own change of the class bar (a vote opened, closed or revealed, an exercise
  // sent): the bar is brought back into view when the page was scrolled past it (stepping a
  // tree scrolls down to the current node), or the vote opened with v stays out of sight.
  // Not for a question, whose column stays in view by itself beside the tree's current node,
  // and never for the stream's updates (ballots arriving).
  // The tree's current node, step by step, stays in the window when it was there before any
  // redraw of the bar (the teacher's or the stream's): the bar above it changes height (a vote
  // opened with v, its counts shown) and bringing the bar into view pushed a deep node below
  // the screen until the next step. A node the teacher had scrolled away from stays away.
  // Whether it is in view is noted when the page is still (loaded, scrolled, a swap settled),
  // not as a swap begins: the teacher's change and the stream's redraw of it come close
  // together, and the second began after the first had pushed the node out.
  var nodeSeen = null;
  function noteNodeSeen() {
    var node = document.querySelector("#tree-panel .tnode.current");
    var r = node && node.getBoundingClientRect();
    nodeSeen = r && r.height && r.top >= 0 && r.bottom <= window.innerHeight ? node : null;
  }
  document.addEventListener("DOMContentLoaded", noteNodeSeen);
  window.addEventListener("scroll", noteNodeSeen, { passive: true });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!(event.target instanceof Element) || !event.target.closest(".class-bar")) { noteNodeSeen(); }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var live = event.target;
    if (!(live instanceof Element) || !live.closest(".class-bar")) return;
    var node = nodeSeen, d = 0;
    if (event.detail.requestConfig && live.matches(".class-bar .class-live") && !live.querySelector(".class-question")) {
      var top = live.closest(".class-bar").getBoundingClientRect().top;
      if (top < 0) { d = top - MARGIN; }
    }
    if (node && node.isConnected) {              // the node first, the bar as far as it allows
      var r = node.getBoundingClientRect();
      if (r.bottom - d > window.innerHeight - MARGIN) { d = r.bottom - window.innerHeight + MARGIN; }
      if (r.top - d < MARGIN) { d = r.top - MARGIN; }
    }
    if (Math.abs(d) >= 1) { window.scrollBy(0, d); }
    noteNodeSeen();
  });

  // While the bar's heading (the vote open, closed, a question, an exercise) is scrolled out
  // of the window, kept so by a deep step's node above, a pill in the screen's corner says it,
  // and a click on it goes up to the bar: v, p, r act where the teacher cannot see them.
  function notePill() {
    var pill = document.querySelector("[data-bar-pill]");
    if (!pill) return;
    var h = document.querySelector(".class-bar .class-live h2");
    var r = h && !h.hasAttribute("data-no-pill") && h.getBoundingClientRect();
    var out = !!(r && r.height && (r.bottom < 0 || r.top > window.innerHeight));
    if (out) { pill.textContent = h.textContent.replace(/\s+/g, " ").trim(); }
    pill.hidden = !out;
  }
  document.addEventListener("DOMContentLoaded", notePill);
  window.addEventListener("scroll", notePill, { passive: true });
  window.addEventListener("resize", notePill);
  document.addEventListener("htmx:afterSettle", notePill);

  // A class exercise's verdict, after the student's check: brought into view.
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!elt || !elt.closest || !elt.closest(".exercise-student")) return;
    var verdict = document.querySelector(".exercise-student [data-in-view]");
    if (verdict) { verdict.scrollIntoView({ block: "nearest" }); }
  });

  // What a student is typing survives the stream's redraw of the part it is in: the first
  // drawing of a stream that opens after the page (late on a busy laptop), a reconnection's,
  // a teacher's change, or the phone's own answer sent back by its stream (the answer wakes it,
  // so that a drawing read before it does not stay: web.classroom.store.tally_event). A text
  // field the student edited (its value is not the one drawn) gets its text back in the new
  // drawing when that has the same field of the same form for the same activity (its hidden
  // seq), with the focus and caret if it had them; a field the new drawing changed itself, or
  // a new activity's form, starts afresh, and an untouched field is only redrawn. (A
  // heuristic typed as the stream's first drawing came was sent as the drawn "cells=1".)
  // The stream changed a field itself when it draws it otherwise than it (or the page) last
  // did and otherwise than the reply to the phone's own request last did: a drawing read before
  // an answer may come after the answer's reply and draw the field as it was (a heuristic typed
  // after sending one was lost to the "cells=1" drawn before it), and the drawing the answer
  // wakes draws what the reply drew.
  // A choice in a list (<select>) is kept by the same rule, and so is a menu (<details>) the
  // user opened or closed: the teacher's "Class exercise" menu, opened as the page came,
  // was found closed by the bar's late first drawing (05:52 on 2026-11-28, 4 busy processes).
  var TYPED = "input[type=text], input[type=number], input[type=search], input:not([type]), textarea, select";
  var beingTyped = [];
  var streamDrew = {}, replyDrew = {};   // by fieldKey: the value the stream (or page), a reply drew
  function fieldKey(field) {
    var form = field.form, seq = form && form.querySelector("input[type=hidden][name=seq]");
    return [form ? form.getAttribute("action") : "", field.name || field.id, seq ? seq.value : ""].join("|");
  }
  function drawnValue(field) {           // what the drawing says: a list's option marked selected
    if (field.tagName !== "SELECT") return field.defaultValue;
    var chosen = Array.prototype.find.call(field.options, function (o) { return o.defaultSelected; });
    return chosen ? chosen.value : field.options.length ? field.options[0].value : "";
  }
  function caret(field) {
    try { return [field.selectionStart, field.selectionEnd]; } catch (e) { return null; }
  }
  function drew(root, into) {
    root.querySelectorAll(TYPED).forEach(function (field) { into[fieldKey(field)] = drawnValue(field); });
  }
  document.addEventListener("DOMContentLoaded", function () { drew(document, streamDrew); });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.xhr) { drew(event.target, replyDrew); }   // a reply, not the stream
  });
  document.addEventListener("htmx:sseBeforeMessage", function () {
    beingTyped = [];
    document.querySelectorAll(TYPED).forEach(function (field) {
      if (field.value === drawnValue(field)) return;           // untouched: drawn anew
      var focused = document.activeElement === field, key = fieldKey(field);
      beingTyped.push({ field: field, key: key, value: field.value, focused: focused,
                    drawn: key in streamDrew ? streamDrew[key] : drawnValue(field),
                    caret: focused ? caret(field) : null });
    });
  });
  document.addEventListener("htmx:sseMessage", function (event) {
    beingTyped.forEach(function (t) {
      if (document.body.contains(t.field)) return;            // not redrawn
      var again = Array.prototype.find.call(document.querySelectorAll(TYPED), function (f) {
        return !beingTyped.some(function (u) { return u.field === f; }) && fieldKey(f) === t.key;
      });
      if (!again || again.disabled) return;
      var drawn = drawnValue(again);
      if (drawn !== t.drawn && drawn !== replyDrew[t.key]) return;
      again.value = t.value;
      if (t.focused) {
        again.focus({ preventScroll: true });
        if (t.caret) { try { again.setSelectionRange(t.caret[0], t.caret[1]); } catch (e) { /* no caret */ } }
      }
    });
    beingTyped = [];
    drew(event.target, streamDrew);
  });

  // The menus: a <details> is known by its class and its rank among those of that class.
  var menusDrew = {}, menusBefore = {};  // by key: open as drawn; the element and its state
  function menus(each) {
    var rank = {};
    document.querySelectorAll("details").forEach(function (d) {
      var cls = d.className || "";
      rank[cls] = (rank[cls] || 0) + 1;
      each(d, cls + "|" + rank[cls]);
    });
  }
  function menusDrawn(root) {
    menus(function (d, key) { if (root.contains(d)) { menusDrew[key] = d.open; } });
  }
  document.addEventListener("DOMContentLoaded", function () { menusDrawn(document); });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.xhr) { menusDrawn(event.target); }
  });
  document.addEventListener("htmx:sseBeforeMessage", function () {
    menusBefore = {};
    menus(function (d, key) { menusBefore[key] = { menu: d, open: d.open, drawn: menusDrew[key] }; });
  });
  document.addEventListener("htmx:sseMessage", function () {
    menus(function (d, key) {
      var was = menusBefore[key];
      if (was && was.menu === d) return;                       // not redrawn
      menusDrew[key] = d.open;
      if (was && d.open === was.drawn && d.open !== was.open) { d.open = was.open; }
    });
    menusBefore = {};
  });

  // A value question on a phone: its number pad types into the field (the phone's own
  // keyboard, which would cover the pad, stays closed: inputmode none once the pad shows).
  function showPads(root) {
    (root || document).querySelectorAll(".value-answer .number-pad[hidden]").forEach(function (pad) {
      pad.hidden = false;
      var field = pad.closest(".value-answer").querySelector("input[name=number]");
      if (field) { field.setAttribute("inputmode", "none"); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { showPads(); });
  document.addEventListener("htmx:load", function (event) { showPads(event.detail.elt.parentNode || document); });
  document.addEventListener("click", function (event) {
    var key = event.target.closest("[data-pad]");
    if (!key) return;
    var field = key.closest(".value-answer").querySelector("input[name=number]");
    if (!field) return;
    var k = key.dataset.pad;
    field.value = k === "back" ? field.value.slice(0, -1) : field.value + k;
  });

  // (A vote's time left counts down with the discussion's timer: [data-left], below.)

  // The teacher's join screen (a large QR code, who joined): at the start of a class it is
  // the top of the page until "Start", the first move, or the first vote, question or
  // exercise (the class bar then carries data-class-started: the server decides); its
  // button or the j key shows it over everything; Escape or "Start" closes it in either
  // form (a dialog shown in the page does not close on Escape by itself).
  function openLobby() {
    var lobby = document.getElementById("class-lobby");
    if (!lobby || lobby.matches(":modal")) return false;
    if (lobby.open) { lobby.close(); }
    lobby.showModal();
    return true;
  }
  function lessonStarted() {
    var lobby = document.getElementById("class-lobby");
    if (lobby && lobby.open && !lobby.matches(":modal")) { lobby.close(); return true; }
    return false;
  }
  function startedYet() {
    if (document.querySelector("[data-class-started]")) { lessonStarted(); }
  }
  document.addEventListener("htmx:pushedIntoHistory", lessonStarted);
  document.addEventListener("htmx:afterSettle", startedYet);
  document.addEventListener("htmx:sseMessage", startedYet);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !event.defaultPrevented && lessonStarted()) { event.preventDefault(); }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-open-lobby]")) { openLobby(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "j" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (openLobby()) { event.preventDefault(); }
  });
})();

// -- class mode's answers (i26-answer): a discussion's timer counts down on every page that
// shows one ([data-left]: seconds left when the page drew it; counted from its arrival here,
// so a phone whose clock is wrong counts the same minutes).
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-left]").forEach(function (el) {
      if (!el.dataset.end) { el.dataset.end = String(now + 1000 * Number(el.dataset.left)); }
      var left = Math.max(0, Math.ceil((Number(el.dataset.end) - now) / 1000));
      el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      el.classList.toggle("done", left === 0);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
})();
