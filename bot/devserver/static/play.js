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
  const params = new URLSearchParams(location.search);
  // The page's words in its language, put in by the server (play.page.* in bot/i18n).
  const words = JSON.parse(document.getElementById("play-words").textContent);
  function say(key, values) {
    return words[key].replace(/\{(\w+)\}/g, function (all, name) {
      return values && name in values ? values[name] : all;
    });
  }

  // What a test or a benchmark reads: click-to-drawn times in ms, and the state.
  const stats = { clicks: [], pending: null, connected: false, online: null, refusals: 0, commands: 0 };
  window.playStats = stats;

  let ws = null;
  let retry = 250;
  let seq = 0;
  let commands = [];
  let channelId = sessionStorage.getItem("play.channel") || params.get("channel") || "";
  let refusalTimer = null;

  function name() {
    const wanted = params.get("as");
    if (wanted) sessionStorage.setItem("play.name", wanted);
    return sessionStorage.getItem("play.name");
  }

  function askName() {
    const dialog = document.getElementById("name-dialog");
    const field = document.getElementById("name-input");
    document.getElementById("name-form").addEventListener("submit", function () {
      const given = field.value.trim();
      if (!given) return;
      sessionStorage.setItem("play.name", given);
      connect();
    });
    dialog.showModal();
    field.focus();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(scheme + "//" + location.host + "/play/ws");
    ws.addEventListener("open", function () {
      retry = 250;
      stats.connected = true;
      send({ op: "hello", name: name(), channel: channelId, locale: document.documentElement.lang });
      showBanner();
    });
    ws.addEventListener("message", function (event) { receive(JSON.parse(event.data)); });
    ws.addEventListener("close", function (event) {
      stats.connected = false;
      if (event.code === 1009) refuse(say("too_large"));
      showBanner();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 4000);
    });
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
      me.textContent = say("you_are", { name: frame.name });
    } else if (frame.op === "sync") {
      sync(frame);
    } else if (frame.op === "switched") {
      channelId = frame.channel;
      sessionStorage.setItem("play.channel", channelId);
      chat.replaceChildren();
      markChannel();
    } else if (frame.op === "refusal") {
      stats.pending = null;
      refuse(frame.text);
      if (frame.fatal) {
        sessionStorage.removeItem("play.name");
        ws.close();
      }
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
    for (const id of frame.remove) {
      const slot = slots.get(id);
      if (slot) slot.remove();
      slots.delete(id);
    }
    for (const [id, html] of Object.entries(frame.upsert)) {
      let slot = slots.get(id);
      if (!slot) {
        slot = document.createElement("div");
        slot.className = "dc-slot";
        slot.dataset.messageId = id;
        slots.set(id, slot);
        added = true;
      }
      slot.innerHTML = html;
    }
    let previous = null;
    for (const id of frame.order) {
      const slot = slots.get(id);
      const wanted = previous ? previous.nextSibling : chat.firstChild;
      if (slot !== wanted) chat.insertBefore(slot, wanted);
      previous = slot;
    }
    if (atBottom || added) chat.scrollTop = chat.scrollHeight;
    const pending = stats.pending;
    if (pending && (pending.message in frame.upsert || added)) {
      stats.pending = null;
      requestAnimationFrame(function () { stats.clicks.push(performance.now() - pending.at); });
    }
  }

  function drawChannels(channels) {
    channelsNav.replaceChildren();
    for (const channel of channels) {
      const link = document.createElement("a");
      link.href = "#" + channel.name;
      link.textContent = "#" + channel.name;
      link.dataset.channel = channel.id;
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
    if (!stats.connected) text = say("reconnecting");
    else if (stats.online === false) text = say("bot_starting");
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
      const next = level.find(function (c) { return c.name === word.toLowerCase(); });
      if (!next) return [];
      node = next;
      typed += next.name + " ";
      const groups = (next.options || []).filter(isGroup);
      level = groups.length ? groups : null;
    }
    if (level !== null) {
      return level
        .filter(function (c) { return c.name.startsWith(partial.toLowerCase()); })
        .map(function (c) {
          return { text: typed + c.name + " ", what: (node ? "" : "/") + c.name, about: about(c) };
        });
    }
    // The leaf: its options, or the choices of the option being typed.
    const leaf = (node.options || []).filter(function (o) { return !isGroup(o); });
    const before = text.slice(0, text.length - partial.length);
    const colon = partial.indexOf(":");
    if (colon >= 0) {
      const option = leaf.find(function (o) { return o.name === partial.slice(0, colon).toLowerCase(); });
      if (!option) return [];
      let values = option.choices || [];
      if (option.type === 5) values = [{ name: "True" }, { name: "False" }];
      const start = partial.slice(colon + 1).toLowerCase();
      return values
        .filter(function (c) { return String(c.name).toLowerCase().startsWith(start); })
        .map(function (c) {
          return { text: before + option.name + ":" + c.name + " ", what: String(c.name), about: option.name };
        });
    }
    const used = new Set((text.match(/[\w-]+(?=:)/g) || []).map(function (n) { return n.toLowerCase(); }));
    return leaf
      .filter(function (o) { return !used.has(o.name) && o.name.startsWith(partial.toLowerCase()); })
      .map(function (o) {
        return { text: before + o.name + ":", what: o.name + (o.required ? "" : " (" + say("optional") + ")"), about: about(o) };
      });
  }

  function isGroup(option) { return option.type === 1 || option.type === 2; }

  // A command's or option's description in the page's language, as Discord shows it.
  const discordLang = { en: "en-US", es: "es-ES" }[document.documentElement.lang] ||
    document.documentElement.lang;
  function about(item) {
    return (item.description_localizations || {})[discordLang] || item.description;
  }

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

  if (name()) connect(); else askName();
})();
