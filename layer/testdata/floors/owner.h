void owner_intercepts(void);
