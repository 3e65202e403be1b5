// The local table: one WebSocket to the server that runs the stand-in; it sends what the
// channel shows (messages drawn as HTML by the bot's preview renderer) whenever it changes,
// and this page sends back clicks, menu choices and typed commands. No framework, no build.
"use strict";

(function () {
  const chat = document.getElementById("chat");
  const channelsNav = document.getElementById("channels");
  const banner = document.getElementById("banner");
  const refusalBox = document.getElementById("refusal");
  const box = document.getElementById("box");
  const input = document.getElementById("command");
  const list = document.getElementById("suggestions");
  const me = document.getElementById("me");
  const stateDot = document.getElementById("state");
  const params = new URLSearchParams(location.search);
  // The page's words in its language, put in by the server (play.page.* in bot/i18n).
  const words = JSON.parse(document.getElementById("play-words").textContent);
  function say(key, values) {
    return words[key].replace(/\{(\w+)\}/g, function (all, name) {
      return values && name in values ? values[name] : all;
    });
  }

  // What a test or a benchmark reads: click-to-drawn times in ms, and the state.
  const stats = {
    clicks: [], pending: null, connected: false, online: null, refusals: 0, commands: 0,
    sockets: 0, state: "connecting", nextAttemptAt: null,
  };
  window.playStats = stats;

  let ws = null;
  let seq = 0;
  let commands = [];
  let channelId = sessionStorage.getItem("play.channel") || params.get("channel") || "";
  let refusalTimer = null;

  // ---- who this tab is ----------------------------------------------------------------

  const dialog = document.getElementById("name-dialog");
  const field = document.getElementById("name-input");
  const counter = document.getElementById("name-count");
  const nameRefusal = document.getElementById("name-refusal");
  const LIMIT = Number(counter.dataset.limit);
  let askingName = false;

  // ?as= is read once: a name the server refuses is asked for in the box, never retried,
  // and a reload keeps the name chosen there (sessionStorage) rather than the URL's.
  if (params.has("as")) {
    sessionStorage.setItem("play.name", params.get("as"));
    params.delete("as");
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
  }

  function name() {
    return sessionStorage.getItem("play.name");
  }

  // Characters as Discord counts them: code points, after trimming the whitespace.
  function length(text) {
    return Array.from(text.trim().replace(/\s+/g, " ")).length;
  }

  function count() {
    const used = length(field.value);
    counter.textContent = used + "/" + LIMIT;
    counter.classList.toggle("play-over", used > LIMIT);
  }

  function askName(reason, given) {
    askingName = true;
    clearTimeout(retryTimer);
    setState("name");
    if (typeof given === "string") field.value = given;
    nameRefusal.textContent = reason || "";
    nameRefusal.hidden = !reason;
    count();
    if (!dialog.open) dialog.showModal();
    field.focus();
  }

  field.addEventListener("input", count);
  dialog.addEventListener("cancel", function (event) { event.preventDefault(); }); // a name is needed
  document.getElementById("name-form").addEventListener("submit", function () {
    sessionStorage.setItem("play.name", field.value);
    askingName = false;
    attempt = 0;
    connect();
  });

  // ---- the connection -----------------------------------------------------------------
  // One socket at a time. When it drops, the page asks /play/ping (a plain request, not a
  // socket) after a back-off, 0.5 s doubling to 10 s with ±20 % jitter, until the server
  // answers; then it opens a socket. Whatever the server does, a tab opens at most
  // MAX_OPENS sockets in any OPEN_WINDOW (one that accepts and closes at once cannot make
  // it loop). A refused name asks for another name instead of reconnecting.
  const FIRST_DELAY = 500;
  const MAX_DELAY = 10000;
  const JITTER = 0.2;
  const MAX_OPENS = 3;
  const OPEN_WINDOW = 30000;
  const STABLE = 10000; // a session this long starts the back-off afresh
  let attempt = 0;
  let opens = []; // when the last sockets were opened (ms)
  let retryTimer = null;
  let countdownTimer = null;
  let welcomedAt = 0;

  function connect() {
    clearTimeout(retryTimer);
    const now = Date.now();
    opens = opens.filter(function (at) { return now - at < OPEN_WINDOW; });
    if (opens.length >= MAX_OPENS) {
      schedule(opens[0] + OPEN_WINDOW - now, false);
      return;
    }
    opens.push(now);
    stats.sockets += 1;
    setState("connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + "/play/ws");
    ws = socket;
    socket.addEventListener("open", function () {
      send({ op: "hello", name: name(), channel: channelId, locale: document.documentElement.lang });
    });
    socket.addEventListener("message", function (event) { receive(JSON.parse(event.data)); });
    socket.addEventListener("close", function (event) {
      if (socket !== ws) return;
      stats.connected = false;
      if (event.code === 1009) refuse(say("too_large"));
      if (askingName) return;
      if (welcomedAt && Date.now() - welcomedAt > STABLE) attempt = 0;
      welcomedAt = 0;
      schedule(backoff(), true);
    });
  }

  function backoff() {
    const delay = Math.min(MAX_DELAY, FIRST_DELAY * Math.pow(2, attempt));
    attempt += 1;
    return delay * (1 - JITTER + 2 * JITTER * Math.random());
  }

  // Wait `delay` ms, counting down in the banner; then ask whether the server is up
  // (`probe`), or connect at once (the socket budget was all that waited).
  function schedule(delay, probe) {
    clearTimeout(retryTimer);
    stats.nextAttemptAt = Date.now() + delay;
    setState("retrying");
    retryTimer = setTimeout(probe ? ping : connect, delay);
  }

  function ping() {
    setState("connecting");
    fetch("/play/ping", { cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        if (!askingName) connect();
      })
      .catch(function () { if (!askingName) schedule(backoff(), true); });
  }

  function setState(state) {
    stats.state = state;
    stateDot.dataset.state = state;
    stateDot.title = state === "connected" ? say("connected") : say("connecting");
    clearInterval(countdownTimer);
    if (state === "retrying") countdownTimer = setInterval(showBanner, 250);
    showBanner();
  }

  function send(frame) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      refuse(say("not_connected"));
      return false;
    }
    ws.send(JSON.stringify(frame));
    return true;
  }

  function receive(frame) {
    if (frame.op === "welcome") {
      welcomedAt = Date.now();
      stats.connected = true;
      setState("connected");
      // Isolated (FSI … PDI): a right-to-left name keeps the sentence's order.
      me.textContent = say("you_are", { name: "⁨" + frame.name + "⁩" });
    } else if (frame.op === "sync") {
      sync(frame);
    } else if (frame.op === "switched") {
      channelId = frame.channel;
      sessionStorage.setItem("play.channel", channelId);
      chat.replaceChildren();
      markChannel();
    } else if (frame.op === "name_refused") {
      sessionStorage.removeItem("play.name");
      askName(frame.text, typeof frame.name === "string" ? frame.name : "");
    } else if (frame.op === "refusal") {
      stats.pending = null;
      refuse(frame.text);
    } else if (frame.op === "launch") {
      openTable(frame.url);
    }
  }

  function sync(frame) {
    if (frame.channel !== channelId) {
      channelId = frame.channel;
      sessionStorage.setItem("play.channel", channelId);
    }
    if ("online" in frame) {
      stats.online = frame.online;
      showBanner();
    }
    if (frame.channels) drawChannels(frame.channels);
    if (frame.commands) {
      commands = frame.commands;
      stats.commands = commands.length;
    }
    if (!frame.order) return;
    const atBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 80;
    const slots = new Map();
    for (const slot of chat.children) slots.set(slot.dataset.messageId, slot);
    let added = false;
    // A click's answer: its message changed, or a message only this person sees (an offer,
    // a refusal). Anyone's public message may come meanwhile (a turn ping sent late, once
    // a rate limit let it go), and counted as the answer it made the next click too soon.
    let answered = false;
    for (const id of frame.remove) {
      const slot = slots.get(id);
      if (slot) slot.remove();
      slots.delete(id);
    }
    for (const [id, html] of Object.entries(frame.upsert)) {
      let slot = slots.get(id);
      const isNew = !slot;
      if (isNew) {
        slot = document.createElement("div");
        slot.className = "dc-slot";
        slot.dataset.messageId = id;
        slots.set(id, slot);
        added = true;
      }
      slot.innerHTML = html;
      if (isNew && slot.querySelector(".dc-ephemeral-message")) answered = true;
    }
    let previous = null;
    for (const id of frame.order) {
      const slot = slots.get(id);
      const wanted = previous ? previous.nextSibling : chat.firstChild;
      if (slot !== wanted) chat.insertBefore(slot, wanted);
      previous = slot;
    }
    tick();
    if (atBottom || added) chat.scrollTop = chat.scrollHeight;
    const pending = stats.pending;
    if (pending && (pending.message in frame.upsert || answered)) {
      stats.pending = null;
      requestAnimationFrame(function () { stats.clicks.push(performance.now() - pending.at); });
    }
  }

  // Relative times ("in 2 minutes") count down as on Discord: the server drew them when
  // the message changed; the page redraws them each second in its language, with the
  // units and rounding of Babel's format_timedelta (threshold 1) that drew them first.
  const relative = new Intl.RelativeTimeFormat(document.documentElement.lang, { numeric: "always" });
  const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
    ["hour", 3600], ["minute", 60], ["second", 1]];
  function relativeText(unix) {
    const delta = Math.round(unix - Date.now() / 1000);
    const seconds = Math.abs(delta);
    for (const [unit, size] of UNITS) {
      if (seconds >= size || unit === "second") {
        const amount = Math.max(1, Math.round(seconds / size));
        return relative.format(delta < 0 ? -amount : amount, unit);
      }
    }
    return "";
  }
  function tick() {
    for (const span of chat.querySelectorAll("[data-relative]")) {
      const text = relativeText(Number(span.dataset.relative));
      if (span.textContent !== text) span.textContent = text;
    }
  }
  setInterval(tick, 1000);

  function drawChannels(channels) {
    channelsNav.replaceChildren();
    for (const channel of channels) {
      const link = document.createElement("a");
      link.href = "#" + channel.name;
      // The server's channels, group DMs and servers without the bot, as the page labels them.
      link.textContent = channel.label || "#" + channel.name;
      link.dataset.channel = channel.id;
      if (channel.kind) link.dataset.kind = channel.kind;
      channelsNav.appendChild(link);
    }
    markChannel();
  }

  function markChannel() {
    for (const link of channelsNav.children) {
      link.classList.toggle("play-current", link.dataset.channel === channelId);
    }
  }

  function showBanner() {
    let text = "";
    if (stats.state === "retrying") {
      const left = Math.max(1, Math.ceil((stats.nextAttemptAt - Date.now()) / 1000));
      text = say("retrying", { seconds: left });
    } else if (stats.state === "connecting") {
      text = stats.sockets > 1 ? say("reconnecting") : say("connecting");
    } else if (stats.state === "connected" && stats.online === false) {
      text = say("bot_starting");
    }
    banner.textContent = text;
    banner.hidden = !text;
  }

  function refuse(text) {
    stats.refusals += 1;
    refusalBox.textContent = text;
    refusalBox.hidden = false;
    clearTimeout(refusalTimer);
    refusalTimer = setTimeout(function () { refusalBox.hidden = true; }, 8000);
  }

  // ---- clicks on messages -------------------------------------------------------------

  chat.addEventListener("click", function (event) {
    const target = event.target;
    const slot = target.closest(".dc-slot");
    if (!slot) return;
    const message = slot.dataset.messageId;
    const option = target.closest(".dc-select-options li");
    if (option) {
      const select = option.closest(".dc-select");
      option.parentElement.hidden = true;
      act({ op: "select", message: message, custom_id: select.dataset.customId,
            values: [option.dataset.value] }, message);
      return;
    }
    const select = target.closest(".dc-select[data-custom-id]");
    if (select && !select.classList.contains("dc-disabled")) {
      const options = select.querySelector(".dc-select-options");
      options.hidden = !options.hidden;
      return;
    }
    const button = target.closest(".dc-button[data-custom-id]");
    if (button && !button.classList.contains("dc-disabled")) {
      act({ op: "click", message: message, custom_id: button.dataset.customId }, message);
      return;
    }
    if (target.closest(".dc-dismiss")) send({ op: "dismiss", message: message });
  });

  function act(frame, message) {
    frame.seq = ++seq;
    if (send(frame)) stats.pending = { message: message, at: performance.now() };
  }

  channelsNav.addEventListener("click", function (event) {
    const link = event.target.closest("a[data-channel]");
    if (!link) return;
    event.preventDefault();
    send({ op: "switch", channel: link.dataset.channel });
  });

  document.getElementById("new-channel").addEventListener("click", function () {
    const wanted = prompt(say("new_channel_prompt"), "table-" + (channelsNav.children.length + 1));
    if (wanted) send({ op: "channel", name: wanted });
  });

  document.getElementById("new-group-dm").addEventListener("click", function () {
    const wanted = prompt(say("new_group_dm_prompt"), "friends");
    if (wanted) send({ op: "group_dm", name: wanted });
  });

  document.getElementById("new-botless").addEventListener("click", function () {
    const wanted = prompt(say("new_botless_prompt"), "no-bot");
    if (wanted) send({ op: "botless", name: wanted });
  });

  // ---- the table (the Activity) ---------------------------------------------------------
  // The bot answered with LAUNCH_ACTIVITY (or the App Launcher opened it): Discord's client
  // page for this person's launch, on the proxy's origin, which frames the table. The
  // same page can open in a tab of its own, to play there and chat here.

  const panel = document.getElementById("table-panel");
  const stage = document.getElementById("table-stage");
  const ownTab = document.getElementById("table-tab");
  const launcher = document.getElementById("app-launcher");
  launcher.hidden = document.body.dataset.table !== "on";
  launcher.addEventListener("click", function () { send({ op: "launcher", seq: ++seq }); });

  function openTable(url) {
    const target = new URL(url);
    // Discord's phone app says so to the Activity: a narrow window plays the phone.
    target.searchParams.set("platform", window.innerWidth < 600 ? "mobile" : "desktop");
    ownTab.href = target.href;
    stats.tables = (stats.tables || 0) + 1;
    const pending = stats.pending; // a click answered with the Activity, not a message
    if (pending) {
      stats.pending = null;
      requestAnimationFrame(function () { stats.clicks.push(performance.now() - pending.at); });
    }
    const frame = stage.querySelector("iframe");
    if (frame && frame.src === target.href) {
      panel.hidden = false;
      return;
    }
    const iframe = document.createElement("iframe");
    iframe.title = panel.getAttribute("aria-label");
    iframe.src = target.href;
    stage.replaceChildren(iframe);
    panel.hidden = false;
  }

  // Closing the panel closes Discord's page in it: the person leaves the Activity.
  document.getElementById("table-close").addEventListener("click", function () {
    stage.replaceChildren();
    panel.hidden = true;
  });

  // ---- the command box ------------------------------------------------------------------

  let shown = [];
  let selected = -1;

  box.addEventListener("submit", function (event) {
    event.preventDefault();
    if (selected >= 0 && !list.hidden) {
      complete(shown[selected]);
      return;
    }
    const text = input.value.trim();
    if (!text) return;
    if (send({ op: "command", text: text, seq: ++seq })) input.value = "";
    suggest();
  });

  input.addEventListener("input", function () { selected = -1; suggest(); });
  input.addEventListener("keydown", function (event) {
    if (list.hidden || !shown.length) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      selected = (selected + step + shown.length) % shown.length;
      drawSuggestions();
    } else if (event.key === "Tab") {
      event.preventDefault();
      complete(shown[Math.max(selected, 0)]);
    } else if (event.key === "Escape") {
      list.hidden = true;
    }
  });
  list.addEventListener("mousedown", function (event) {
    const item = event.target.closest("li");
    if (!item) return;
    event.preventDefault();
    complete(shown[Number(item.dataset.index)]);
  });

  function complete(suggestion) {
    input.value = suggestion.text;
    input.focus();
    selected = -1;
    suggest();
  }

  // What could come next in the box, from the commands the bot registered.
  function suggest() {
    shown = options(input.value);
    drawSuggestions();
  }

  // Commands, options and choices by the names Discord's client shows in the page's
  // language (name_localizations), as the bot registered them; typed by either name.
  const discordLang = document.documentElement.dataset.discordLocale;
  function local(item) {
    return String((item.name_localizations || {})[discordLang] || item.name);
  }
  function about(item) {
    return (item.description_localizations || {})[discordLang] || item.description;
  }
  function named(items, word) {
    const lower = word.toLowerCase();
    return items.find(function (c) {
      return local(c).toLowerCase() === lower || String(c.name).toLowerCase() === lower;
    });
  }
  function startsWith(item, partial) {
    return local(item).toLowerCase().startsWith(partial.toLowerCase());
  }

  function options(text) {
    if (!text.startsWith("/")) return [];
    const words = text.slice(1).split(" ");
    const partial = words.pop(); // the word being typed
    let level = commands; // what the next word may be; null: options from here on
    let node = null;
    let typed = "/";
    for (const word of words) {
      if (!word) continue;
      if (level === null) break;
      const next = named(level, word);
      if (!next) return [];
      node = next;
      typed += local(next) + " ";
      const groups = (next.options || []).filter(isGroup);
      level = groups.length ? groups : null;
    }
    if (level !== null) {
      return level
        .filter(function (c) { return startsWith(c, partial); })
        .map(function (c) {
          return { text: typed + local(c) + " ", what: (node ? "" : "/") + local(c), about: about(c) };
        });
    }
    // The leaf: its options, or the choices of the option being typed.
    const leaf = (node.options || []).filter(function (o) { return !isGroup(o); });
    const before = text.slice(0, text.length - partial.length);
    const colon = partial.indexOf(":");
    if (colon >= 0) {
      const option = named(leaf, partial.slice(0, colon));
      if (!option) return [];
      let values = option.choices || [];
      if (option.type === 5) values = [{ name: say("true") }, { name: say("false") }];
      const start = partial.slice(colon + 1);
      return values
        .filter(function (c) { return startsWith(c, start); })
        .map(function (c) {
          return { text: before + local(option) + ":" + local(c) + " ", what: local(c), about: local(option) };
        });
    }
    const used = new Set((text.match(/[^\s:]+(?=:)/g) || []).map(function (n) { return n.toLowerCase(); }));
    return leaf
      .filter(function (o) {
        return !used.has(local(o).toLowerCase()) && !used.has(o.name) && startsWith(o, partial);
      })
      .map(function (o) {
        return { text: before + local(o) + ":", what: local(o) + (o.required ? "" : " (" + say("optional") + ")"), about: about(o) };
      });
  }

  function isGroup(option) { return option.type === 1 || option.type === 2; }

  function drawSuggestions() {
    list.replaceChildren();
    shown.slice(0, 25).forEach(function (suggestion, index) {
      const item = document.createElement("li");
      item.dataset.index = String(index);
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", String(index === selected));
      const what = document.createElement("span");
      what.className = "play-what";
      what.textContent = suggestion.what;
      const about = document.createElement("span");
      about.className = "play-about";
      about.textContent = suggestion.about || "";
      item.append(what, about);
      list.appendChild(item);
    });
    list.hidden = !shown.length;
  }

  if (name()) connect(); else askName("", "");
})();
