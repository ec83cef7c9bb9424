{
  description = "Stands in for nixpkgs in relctl's flake tests: returns what fetchurl and mkDerivation are given.";
  outputs = { self }: {
    legacyPackages = builtins.listToAttrs (map (system: {
      name = system;
      value = {
        fetchurl = args: args // { stub = "fetchurl"; };
        stdenvNoCC.mkDerivation = args: args // { stub = "mkDerivation"; name = "${args.pname}-${args.version}"; };
      };
    }) [ "x86_64-linux" "aarch64-linux" "i686-linux" "x86_64-darwin" "aarch64-darwin" ]);
  };
}
