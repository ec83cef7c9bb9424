import RelctlCommands

// Everything but this call lives in RelctlCommands, so a program that registers its own
// extensions builds the same command line (Examples/relctl-gradle).
await RelctlCLI.main()
