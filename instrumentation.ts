// Runs once when the server starts, before it serves a request: builds the app (lib/app.ts) and
// starts its services in order.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // The composition root first: from here on getApp() (lib/running-app.ts) can build the app, which
  // any module below may ask for. It is built further down, once the key of the credentials is known.
  const { getApp } = await import("@/lib/app");
  // A data folder that others can read or enter is said in the log, with the fix (lib/data-dir.ts).
  const { warnAboutDataDir } = await import("@/lib/data-dir");
  warnAboutDataDir();
  // A WIRESPEED_TRUSTED_PROXIES range that holds the default gateway (Docker's userland proxy) or this
  // machine's own network believes forged proxy headers from anyone there: one line (lib/trusted-proxy-warning.ts).
  const { warnAboutTrustedProxies } = await import("@/lib/trusted-proxy-warning");
  warnAboutTrustedProxies();
  // A sign-in setting the server cannot use (a short WIRESPEED_API_TOKEN, a malformed WIRESPEED_TRUSTED_PROXIES,
  // a proxy's user header without the proxies it may come from) stops the server here, naming the variable.
  const { checkAuthSettings } = await import("@/lib/auth/settings");
  checkAuthSettings();
  // Home Assistant's broker: a WIRESPEED_MQTT_URL that is not mqtt:// or mqtts:// stops the server here too.
  const { checkMqttSettings, resolveMqttSettings } = await import("@/lib/mqtt/settings");
  checkMqttSettings();
  // The key of the host credentials first: a short WIRESPEED_SECRET or an unsafe key file stops the server here.
  const { startHostSecrets } = await import("@/lib/inventory/secrets");
  await startHostSecrets();
  // The one app of this process: its database, run engine, experiment runner, scheduler and buses.
  const app = getApp();
  const { ensureLocalHost } = await import("@/lib/bootstrap");
  await ensureLocalHost();
  // Share links made before their tokens were kept hashed still hold them in the clear: hashed now, their links keep working.
  const { hashStoredShareTokens } = await import("@/lib/shares/store");
  const hashed = await hashStoredShareTokens();
  if (hashed > 0) console.log(`[wirespeed] kept ${hashed} share link(s) by the hash of their token from now on`);
  // WIRESPEED_ADMIN_PASSWORD seeds the first admin; without it, the first visitor creates one at /setup.
  const { seedAdminFromEnv } = await import("@/lib/auth/users");
  const admin = await seedAdminFromEnv();
  if (admin) console.log(`[wirespeed] created the admin account "${admin.username}" from WIRESPEED_ADMIN_PASSWORD`);
  // Every instance on this database must hold the key the credentials are sealed with: another key stops it here.
  const { startSharedKeyCheck } = await import("@/lib/instances/shared-key");
  await startSharedKeyCheck();
  // This instance's heartbeat (lib/instances/registry.ts); then the runs and experiments that this instance's
  // previous life, or an instance whose heartbeat stopped, left in progress are marked interrupted and their iperf3 stopped.
  // Another live process of the same name (two on one machine without WIRESPEED_INSTANCE) stops this one here.
  const { startInstanceRegistry } = await import("@/lib/instances/registry");
  const sweep = await startInstanceRegistry(app.instances);
  console.log(
    `[wirespeed] instance ${app.instance.id}${app.instance.site ? ` (site ${app.instance.site})` : ""} on ${app.database}`,
  );
  if (sweep.runs > 0) console.log(`[wirespeed] marked ${sweep.runs} unfinished run(s) as interrupted`);
  if (sweep.experiments > 0)
    console.log(`[wirespeed] marked ${sweep.experiments} unfinished experiment(s) as interrupted`);
  // Alerts judge every run that ends from now on; then the schedules start (after the recoveries
  // above, or what a previous instance left "running" would make their links look busy).
  app.watchAlerts();
  await app.scheduler.start();
  // Home Assistant over MQTT (WIRESPEED_MQTT_URL): every link's entities and state, kept current as runs end
  // and alerts change; it connects in the background and again whenever the broker comes back.
  const mqtt = resolveMqttSettings();
  if (mqtt) app.homeAssistant.start(mqtt);
  // In the background: the digests of runs that ended before they were kept, then sample
  // retention (WIRESPEED_SAMPLES_KEEP_DAYS, default 180 days) now and every night.
  const { startRunMaintenance } = await import("@/lib/runs/retention");
  const stopBackground = startRunMaintenance();
  // SIGTERM (docker stop) and Ctrl-C from now on: no new run, the runs under way stopped on both
  // hosts and stored as interrupted, the database closed, exit within 10 s (lib/shutdown.ts).
  const { installServerShutdown } = await import("@/lib/shutdown");
  await installServerShutdown(app, {
    stopBackground: () => {
      stopBackground();
      app.instances.stop();
    },
    leave: () => app.instances.leave(),
  });
}
