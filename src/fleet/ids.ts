// Composite device IDs (issue 6): tenant u16 in bits 63-48, fleet u16 in bits 47-32, device u32 in bits 31-0.
// `{id}` in fleet API paths is this value in decimal. BigInt throughout: the value does not fit a JS number.

export interface DeviceAddress {
  tenant_id: number;
  fleet_id: number;
  device_id: number;
}

const U64_MAX = (1n << 64n) - 1n;

const isU16 = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 0xffff;
const isU32 = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 0xffffffff;

export function compositeId({ tenant_id, fleet_id, device_id }: DeviceAddress): bigint {
  if (!isU16(tenant_id) || !isU16(fleet_id) || !isU32(device_id)) throw new RangeError('tenant and fleet must be uint16, device uint32');
  return (BigInt(tenant_id) << 48n) | (BigInt(fleet_id) << 32n) | BigInt(device_id);
}

/** The parts of a decimal composite ID; undefined when the text is not a uint64 in canonical decimal. */
export function parseCompositeId(text: string): DeviceAddress | undefined {
  if (!/^(0|[1-9][0-9]{0,19})$/.test(text)) return undefined;
  const value = BigInt(text);
  if (value > U64_MAX) return undefined;
  return {
    tenant_id: Number(value >> 48n),
    fleet_id: Number((value >> 32n) & 0xffffn),
    device_id: Number(value & 0xffffffffn),
  };
}

export const formatCompositeId = (address: DeviceAddress): string => compositeId(address).toString();
