// The operator list scenarios of `npm run bench -- --seed-large` (Svc only): the first page of users and
// of organizations, and a page of users far down the keyset (reached by following nextCursor), each with
// `limit=50` and the operator token. The target is p95 < 50 ms with the large seed.

/** How many pages the deep-page scenario walks before it times its page (page 201: rows 10,001-10,050). */
const DEEP_PAGES = 200;

/** Operators are few: one dashboard (1 connection) and a busy team (10). */
export const OPERATOR_CONNECTIONS = [1, 10];

const auth = (target) => ({ authorization: `Bearer ${target.info.adminToken}` });

/** GETs a list page of the operator API (throws on anything but 200). */
async function listPage(target, path) {
  const response = await fetch(`${target.info.adminApi}${path}`, { headers: auth(target) });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const list = (name, path) => ({
  name,
  cost: {},
  prepare: async (target) => {
    await listPage(target, path);
    return {};
  },
  load: ({ target }) => ({ url: `${target.info.adminApi}${path}`, headers: auth(target) }),
});

export const OPERATOR_SCENARIOS = [
  list('users_list', '/users?limit=50'),
  list('organizations_list', '/organizations?limit=50'),
  {
    name: 'users_deep_page',
    cost: {},
    // Follows nextCursor DEEP_PAGES times (or to the last page of a smaller database).
    prepare: async (target) => {
      let path = '/users?limit=50';
      for (let page = 0; page < DEEP_PAGES; page += 1) {
        const { nextCursor } = await listPage(target, path);
        if (nextCursor === null || nextCursor === undefined) break;
        path = `/users?limit=50&cursor=${encodeURIComponent(nextCursor)}`;
      }
      return { path };
    },
    load: ({ target, state }) => ({ url: `${target.info.adminApi}${state.path}`, headers: auth(target) }),
  },
];
