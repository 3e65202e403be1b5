// The real Embedded App SDK (the table page's own package, bundled by its esbuild) for
// tests to drive command by command: window.probe.call('getInstanceConnectedParticipants')
// resolves with what the SDK parsed, or with the error it rejected with.
import {DiscordSDK} from '@discord/embedded-app-sdk';

const probe = {ready: false, updates: []};
window.probe = probe;
const config = await (await fetch('api/config')).json();
const sdk = new DiscordSDK(config.client_id, {disableConsoleLogOverride: true});
probe.platform = sdk.platform;
probe.instanceId = sdk.instanceId;
// The SDK leaves a promise pending for ever when an answer does not fit its schema:
// here that is a failure after a few seconds, named.
const SILENT_MS = 5000;
probe.call = async (name, args) => {
  const silent = new Promise((resolve) => setTimeout(() => resolve({silent: name}), SILENT_MS));
  const answered = sdk.commands[name](args).then(
    (ok) => ({ok}),
    (error) => ({error: {code: error.code, message: error.message}}),
  );
  return Promise.race([answered, silent]);
};
probe.subscribe = () =>
  sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', (data) => probe.updates.push(data));
await sdk.ready();
probe.ready = true;
