const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids reach SQL only as uuids: anything else is a missing id, answered without a query. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
