/*
 * stub_module.c - a native file that is no sat module: one luaopen_sat_core that does
 * nothing, cross-built for another machine and for Windows (make loader-fixtures) for the
 * specs of the dist loader (lua/sat/loader.lua), which must refuse it before the system's
 * loader sees it.
 */
int luaopen_sat_core(void *L);

int luaopen_sat_core(void *L)
{
    (void)L;
    return 0;
}
