import type { QueryClient, QueryKey } from "@tanstack/react-query";

/** Fetch a list again after a change, even when its first load is still on the way.
 *
 * `invalidateQueries` alone reuses a fetch already in flight when the query has no data yet (React Query
 * cancels an in-flight fetch only for a query that has data), so a change made while a long list is still
 * loading for the first time would be shown without the change until the next refetch. Cancelling first
 * makes the refetch start after the change. */
export async function refresh(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
