fn main() {
    println!("velo-1brc {}", env!("CARGO_PKG_VERSION"));
}
