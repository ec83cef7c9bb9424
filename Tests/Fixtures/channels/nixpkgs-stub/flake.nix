{
  description = "Stands in for nixpkgs in relctl's flake tests: returns what fetchurl and mkDerivation are given.";
  outputs = { self }: {
    legacyPackages = builtins.listToAttrs (map (system: {
      name = system;
      value = rec {
        lib.optionals = condition: list: if condition then list else [ ];
        fetchurl = args: args // { stub = "fetchurl"; };
        autoPatchelfHook = "autoPatchelfHook";
        stdenvNoCC.mkDerivation = args: args // { stub = "mkDerivation"; stdenv = "stdenvNoCC"; name = "${args.pname}-${args.version}"; };
        stdenv = {
          mkDerivation = args: args // { stub = "mkDerivation"; stdenv = "stdenv"; name = "${args.pname}-${args.version}"; };
          cc.cc.lib = "libgcc";
        };
      };
    }) [ "x86_64-linux" "aarch64-linux" "i686-linux" "x86_64-darwin" "aarch64-darwin" ]);
  };
}
