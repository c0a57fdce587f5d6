void other_fn(void);
