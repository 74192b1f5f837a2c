/** A trimmed string field; missing or not a string (a file) reads as ''. */
export function readString(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** Every string value of a repeated field (checkboxes), de-duplicated, at most `max`. */
export function readStrings(form: FormData, name: string, max: number): string[] {
  const values = form.getAll(name).filter((v): v is string => typeof v === 'string' && v.length > 0);
  return [...new Set(values)].slice(0, max);
}
