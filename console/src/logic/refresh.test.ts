import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";

import { refresh } from "./refresh";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("refreshing a list after a change", () => {
  it("shows the change even when the list's first load was still on the way when the change was made", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const firstLoad = deferred<string[]>(); // the list as it was before the change, answered late
    let calls = 0;
    const observer = new QueryObserver<string[]>(client, {
      queryKey: ["catalog"],
      queryFn: () => (++calls === 1 ? firstLoad.promise : Promise.resolve(["old", "new"])),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    expect(calls).toBe(1); // the first load has started and has no data yet

    const refreshed = refresh(client, ["catalog"]); // the change was saved: fetch again
    firstLoad.resolve(["old"]);
    await refreshed;

    expect(calls).toBe(2);
    expect(observer.getCurrentResult().data).toEqual(["old", "new"]);
    unsubscribe();
  });
});
