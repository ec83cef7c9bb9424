fn main() {
    println!("velo-cli {}", env!("CARGO_PKG_VERSION"));
}
