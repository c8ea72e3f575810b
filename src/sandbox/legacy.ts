// `warden sandbox legacy-cleanup`: a host set up as a standalone sandbox host before config_version 9 keeps
// `openshell.mode: standalone` in config.yaml, which makes /health report the sandbox subsystem degraded and
// the sidecar bind to guardrail.host. The old standalone service itself is not Warden's to remove (its files
// were installed by the operator); this removes the marker, keeping the rest of the file and its comments.
import { loadSettings } from '../config/settings.js';
import { updateConfigFile } from '../config/write.js';

export function legacyCleanup(env: NodeJS.ProcessEnv = process.env): string {
  const settings = loadSettings({ env });
  if (settings.config.openshell.mode !== 'standalone') {
    return `nothing to clean up: ${settings.path} does not set openshell.mode: standalone`;
  }
  updateConfigFile(settings.path, (doc) => {
    doc.deleteIn(['openshell', 'mode']);
  });
  return `removed openshell.mode: standalone from ${settings.path}; reload the gateway (SIGHUP) or restart it`;
}
