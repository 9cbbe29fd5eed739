// A dynamically shaped model: `dispatchlab run` reports it cannot run it.
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}
