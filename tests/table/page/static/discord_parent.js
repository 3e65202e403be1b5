// Discord's side of the Embedded App SDK's postMessage protocol, as the table's page
// tests need it: the iframe with Discord's query parameters (on this same origin: the
// SDK drops messages from origins not on its list), the handshake and READY, then
// AUTHORIZE (a code, with the consent already given), AUTHENTICATE, the locale and
// CAPTURE_LOG. Every frame the page sent is kept in window.parentSeen for the test.
'use strict';
const HANDSHAKE = 0, FRAME = 1, CLOSE = 2;
const query = new URLSearchParams(location.search);
const userId = query.get('user') || '1001';
const locale = query.get('locale') || 'en-US';
const platform = query.get('platform') || 'desktop';
const CLIENT_ID = '123456789012345678';
const GUILD_ID = '900000000000000001', CHANNEL_ID = '900000000000000002';
const frameId = crypto.randomUUID();
const instanceId = `i-1700000000000-gc-${GUILD_ID}-${CHANNEL_ID}`;
const seen = [];
window.parentSeen = seen;
window.instanceId = instanceId;

const params = new URLSearchParams({
  instance_id: instanceId, location_id: `gc-${GUILD_ID}-${CHANNEL_ID}`,
  launch_id: '1700000000000', channel_id: CHANNEL_ID, guild_id: GUILD_ID,
  frame_id: frameId, platform,
});
const iframe = document.createElement('iframe');
iframe.src = `/?${params}`;
iframe.title = 'table';
document.getElementById('stage').append(iframe);

function send(opcode, payload) {
  iframe.contentWindow.postMessage([opcode, payload], location.origin);
}
function reply(cmd, nonce, data) { send(FRAME, {cmd, evt: null, nonce, data}); }
function refuse(cmd, nonce, code, message) {
  send(FRAME, {cmd, evt: 'ERROR', nonce, data: {code, message}});
}

async function standin(path, body) {
  const answer = await fetch(path, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
  });
  if (!answer.ok) throw {code: 4009, message: `${path}: ${answer.status}`};
  return answer.json();
}

const commands = {
  async AUTHORIZE(args) {
    if (args.client_id !== CLIENT_ID) throw {code: 4007, message: 'Invalid client id'};
    if (query.get('decline') === '1') throw {code: 5000, message: 'Authorization declined'};
    return standin('/.discord/authorize', {user_id: userId, scope: args.scope});
  },
  async AUTHENTICATE(args) {
    return standin('/.discord/authenticate', {access_token: args.access_token});
  },
  async USER_SETTINGS_GET_LOCALE() { return {locale}; },
  async CAPTURE_LOG() { return null; },
};

window.addEventListener('message', async (event) => {
  if (event.source !== iframe.contentWindow || event.origin !== location.origin) return;
  if (!Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  seen.push([opcode, payload]);
  if (opcode === HANDSHAKE) {
    if (payload.v !== 1 || payload.client_id !== CLIENT_ID || payload.frame_id !== frameId) {
      send(CLOSE, {code: 4000, message: 'Invalid client id or frame'});
      return;
    }
    if (query.get('silent') === '1') return;  // Discord never answers: ready() must time out
    send(FRAME, {
      cmd: 'DISPATCH', evt: 'READY', nonce: null,
      // No avatar key: the SDK's READY schema refuses avatar: null (ready() would hang).
      data: {v: 1, config: {cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api',
             environment: 'production'}, user: {id: userId, username: `user${userId}`, discriminator: '0'}},
    });
    return;
  }
  if (opcode !== FRAME) return;
  const {cmd, args, nonce} = payload;
  if (cmd === 'SUBSCRIBE' || cmd === 'UNSUBSCRIBE') { reply(cmd, nonce, {evt: payload.evt}); return; }
  const handler = commands[cmd];
  if (!handler) { refuse(cmd, nonce, 4002, `Unknown command ${cmd}`); return; }
  try {
    reply(cmd, nonce, await handler(args || {}));
  } catch (error) {
    refuse(cmd, nonce, error.code || 5000, error.message || String(error));
  }
});
