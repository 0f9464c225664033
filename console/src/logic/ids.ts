// Ids the console makes for what an owner creates (she never types a technical id): readable from the name, with
// a few random characters so two offers of the same name never collide.

export function slugOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

export function newId(name: string, random: () => number = Math.random): string {
  const tail = Array.from({ length: 4 }, () => "abcdefghjkmnpqrstuvwxyz23456789"[Math.floor(random() * 31)]).join("");
  return `${slugOf(name) || "offer"}-${tail}`;
}
