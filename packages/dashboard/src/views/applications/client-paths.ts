/** The API paths of one client; every change of it refreshes what is cached below `/clients`. */
export const clientPath = (clientId: string) => `/clients/${encodeURIComponent(clientId)}`;

/** The application-access paths of a client, by its record id. */
export const applicationPath = (id: string) => `/applications/${encodeURIComponent(id)}`;
