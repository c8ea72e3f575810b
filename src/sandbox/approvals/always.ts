// `always` decisions in config.yaml: an approved host goes to `openshell.egress.unblocked`, a rejected one to
// `openshell.egress.block` (and out of the other list). One synchronous read, edit, validate and atomic write
// through the `yaml` document API (config/write.ts), so the operator's comments and layout survive and two edits
// in this process cannot interleave; a file changed by another program meanwhile is refused, never overwritten.
import { isSeq, type Document } from 'yaml';
import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { updateConfigFile } from '../../config/write.js';
import { SandboxApiError } from '../errors.js';

export type AlwaysList = 'unblocked' | 'block';

const OTHER: Record<AlwaysList, AlwaysList> = { unblocked: 'block', block: 'unblocked' };

function hostsAt(doc: Document, list: AlwaysList): string[] {
  const node = doc.getIn(['openshell', 'egress', list], true);
  return isSeq(node) ? node.items.map((item) => String((item as { value?: unknown }).value ?? item)) : [];
}

/**
 * Puts `host` in `list` (once) and takes it out of the other list. Returns the config as written, and whether
 * the lists changed (false when the file already said so).
 */
export function persistAlways(configPath: string, host: string, list: AlwaysList): { config: Config; changed: boolean } {
  let changed = false;
  try {
    const config = updateConfigFile(configPath, (doc) => {
      const other = hostsAt(doc, OTHER[list]);
      for (let index = other.length - 1; index >= 0; index -= 1) {
        if (other[index] === host) {
          doc.deleteIn(['openshell', 'egress', OTHER[list], index]);
          changed = true;
        }
      }
      if (!hostsAt(doc, list).includes(host)) {
        if (isSeq(doc.getIn(['openshell', 'egress', list], true))) doc.addIn(['openshell', 'egress', list], host);
        else doc.setIn(['openshell', 'egress', list], doc.createNode([host]));
        changed = true;
      }
    });
    return { config, changed };
  } catch (err) {
    if (err instanceof ConfigError) {
      throw new SandboxApiError('conflict', `cannot save ${host} to openshell.egress.${list}: ${err.message}`, { cause: err });
    }
    throw err;
  }
}
