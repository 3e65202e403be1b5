// Discord's client around one launch of the Activity, as the stand-in plays it. It makes
// the iframe with Discord's query parameters on this same origin (the SDK listens only to
// its own origin and Discord's) and relays: what the table posts goes to the stand-in
// over /.discord/ws, which builds every answer (bot/devserver/standin/sdk_parent.py);
// what comes back is posted to the table. The consent dialog is Discord's OAuth2 prompt.
"use strict";

(function () {
  // Opened from the chat page, this window's opener would be the chat: the SDK posts to
  // `parent.opener ?? parent`, so it must see none.
  window.opener = null;
  const query = new URLSearchParams(location.search);
  const status = document.getElementById("status");
  const stage = document.getElementById("stage");
  const dialog = document.getElementById("consent");
  const asks = []; // AUTHORIZE requests waiting for the person, first shown
  let iframe = null;
  let stopped = false;
  const seen = []; // every message the table posted, for tests
  window.discordSeen = seen;

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(scheme + "//" + location.host + "/.discord/ws?" + new URLSearchParams({
    ticket: query.get("ticket") || "",
    platform: query.get("platform") === "mobile" ? "mobile" : "desktop",
  }));

  function relay(frame) {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  socket.addEventListener("message", function (event) {
    const frame = JSON.parse(event.data);
    if (frame.op === "launch") open(frame);
    else if (frame.op === "post" && iframe) iframe.contentWindow.postMessage(frame.message, location.origin);
    else if (frame.op === "consent") ask(frame);
    else if (frame.op === "ended" || frame.op === "gone") stop(frame.text);
  });
  socket.addEventListener("close", function () {
    if (!stopped) stop(document.body.dataset.lost);
  });

  window.addEventListener("message", function (event) {
    // Only the table's frame, from the origin it was loaded at.
    if (!iframe || event.source !== iframe.contentWindow || event.origin !== location.origin) return;
    seen.push(event.data);
    relay({ op: "sdk", message: event.data });
  });

  function open(frame) {
    document.title = frame.title;
    iframe = document.createElement("iframe");
    iframe.title = frame.title;
    iframe.src = frame.path + "?" + new URLSearchParams(frame.query);
    stage.replaceChildren(iframe);
    status.hidden = true;
  }

  function ask(frame) {
    asks.push(frame);
    if (asks.length === 1) show();
  }

  function show() {
    const frame = asks[0];
    document.getElementById("consent-title").textContent = frame.title;
    const lines = document.getElementById("consent-lines");
    lines.replaceChildren();
    for (const line of frame.lines) {
      const item = document.createElement("li");
      item.textContent = line;
      lines.appendChild(item);
    }
    if (!dialog.open) dialog.showModal();
  }

  function answer(granted) {
    const frame = asks.shift();
    if (!frame) return;
    relay({ op: "consent", nonce: frame.nonce, granted: granted });
    if (asks.length) show();
    else dialog.close();
  }

  document.getElementById("consent-authorize").addEventListener("click", function () { answer(true); });
  document.getElementById("consent-cancel").addEventListener("click", function () { answer(false); });
  dialog.addEventListener("cancel", function (event) {
    event.preventDefault(); // Escape is Cancel, for the request shown
    answer(false);
  });

  function stop(text) {
    stopped = true;
    if (iframe) iframe.remove();
    iframe = null;
    asks.length = 0;
    if (dialog.open) dialog.close();
    status.textContent = text;
    status.hidden = false;
  }
})();
