module attributes {mav.module_classes = [["", "mav_test_models.HwMLP"], ["fc1", "torch.nn.modules.linear.Linear"], ["bn1", "torch.nn.modules.batchnorm.BatchNorm1d"], ["fc2", "torch.nn.modules.linear.Linear"], ["bn2", "torch.nn.modules.batchnorm.BatchNorm1d"], ["fc3", "torch.nn.modules.linear.Linear"], ["relu", "torch.nn.modules.activation.ReLU"]], mav.pass_outputs = [#mav.pass_output<"mav-count-dropout", {dropout_count = 0 : i64, functional = {}, functional_count = 0 : i64, module_count = 0 : i64, modules = {}, nodes = []}>]} {
  mav.weight @fc1.weight parameter = dense_resource<fc1.weight> : tensor<16x16xf32>
  mav.weight @fc1.bias parameter = dense_resource<fc1.bias> : tensor<16xf32>
  mav.weight @bn1.weight parameter = dense_resource<bn1.weight> : tensor<16xf32>
  mav.weight @bn1.bias parameter = dense_resource<bn1.bias> : tensor<16xf32>
  mav.weight @bn1.running_mean buffer = dense_resource<bn1.running_mean> : tensor<16xf32>
  mav.weight @bn1.running_var buffer = dense_resource<bn1.running_var> : tensor<16xf32>
  mav.weight @bn1.num_batches_tracked buffer = dense_resource<bn1.num_batches_tracked> : tensor<si64>
  mav.weight @fc2.weight parameter = dense_resource<fc2.weight> : tensor<8x16xf32>
  mav.weight @fc2.bias parameter = dense_resource<fc2.bias> : tensor<8xf32>
  mav.weight @bn2.weight parameter = dense_resource<bn2.weight> : tensor<8xf32>
  mav.weight @bn2.bias parameter = dense_resource<bn2.bias> : tensor<8xf32>
  mav.weight @bn2.running_mean buffer = dense_resource<bn2.running_mean> : tensor<8xf32>
  mav.weight @bn2.running_var buffer = dense_resource<bn2.running_var> : tensor<8xf32>
  mav.weight @bn2.num_batches_tracked buffer = dense_resource<bn2.num_batches_tracked> : tensor<si64>
  mav.weight @fc3.weight parameter = dense_resource<fc3.weight> : tensor<4x8xf32>
  mav.weight @fc3.bias parameter = dense_resource<fc3.bias> : tensor<4xf32>
  mav.graph @forward(%x: tensor<2x16xf32>) -> tensor<2x4xf32> attributes {inputs = [#mav.value<name = "x", shape = [2, 16]>], outputs = [#mav.value<name = "data_out_0", shape = [2, 4], torch_dtype = "torch.float32", type = "float", precision = [32], stride = [4, 1]>]} {
    %fc1 = mav.call_module "fc1" (%x) {body = @fc1.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "linear", args = [#mav.value<name = "data_in_0">, #mav.value<name = "weight", shape = [16, 16], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "bias", shape = [16], torch_dtype = "torch.float32", type = "float", precision = [32]>]>, config = {training = false}, module_class = "torch.nn.modules.linear.Linear", scope = #mav.scope<"fc1", "torch.nn.modules.linear.Linear">} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %bn1 = mav.call_module "bn1" (%fc1) {body = @bn1.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "batch_norm1d", args = [#mav.value<name = "data_in_0">, #mav.value<name = "weight", shape = [16], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "bias", shape = [16], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "running_mean", shape = [16], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "running_var", shape = [16], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "num_batches_tracked", shape = [], torch_dtype = "torch.int64", type = "integer", precision = [64]>]>, config = {cudnn_enabled = true, eps = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64, training = false}, module_class = "torch.nn.modules.batchnorm.BatchNorm1d", scope = #mav.scope<"bn1", "torch.nn.modules.batchnorm.BatchNorm1d">} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %relu = mav.call_module "relu" (%bn1) {body = @relu.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "relu", args = [#mav.value<name = "data_in_0">]>, config = {training = false}, module_class = "torch.nn.modules.activation.ReLU", scope = #mav.scope<"relu", "torch.nn.modules.activation.ReLU">} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %fc2 = mav.call_module "fc2" (%relu) {body = @fc2.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "linear", args = [#mav.value<name = "data_in_0">, #mav.value<name = "weight", shape = [8, 16], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "bias", shape = [8], torch_dtype = "torch.float32", type = "float", precision = [32]>]>, config = {training = false}, module_class = "torch.nn.modules.linear.Linear", scope = #mav.scope<"fc2", "torch.nn.modules.linear.Linear">} : (tensor<2x16xf32>) -> tensor<2x8xf32>
    %bn2 = mav.call_module "bn2" (%fc2) {body = @bn2.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "batch_norm1d", args = [#mav.value<name = "data_in_0">, #mav.value<name = "weight", shape = [8], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "bias", shape = [8], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "running_mean", shape = [8], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "running_var", shape = [8], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "num_batches_tracked", shape = [], torch_dtype = "torch.int64", type = "integer", precision = [64]>]>, config = {cudnn_enabled = true, eps = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64, training = false}, module_class = "torch.nn.modules.batchnorm.BatchNorm1d", scope = #mav.scope<"bn2", "torch.nn.modules.batchnorm.BatchNorm1d">} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %relu_1 = mav.call_module "relu" (%bn2) {body = @relu.forward1, common = #mav.common<mase_type = "module_related_func", mase_op = "relu", args = [#mav.value<name = "data_in_0">]>, config = {training = false}, module_class = "torch.nn.modules.activation.ReLU", scope = #mav.scope<"relu", "torch.nn.modules.activation.ReLU">} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %fc3 = mav.call_module "fc3" (%relu_1) {body = @fc3.forward, common = #mav.common<mase_type = "module_related_func", mase_op = "linear", args = [#mav.value<name = "data_in_0">, #mav.value<name = "weight", shape = [4, 8], torch_dtype = "torch.float32", type = "float", precision = [32]>, #mav.value<name = "bias", shape = [4], torch_dtype = "torch.float32", type = "float", precision = [32]>]>, config = {training = false}, module_class = "torch.nn.modules.linear.Linear", scope = #mav.scope<"fc3", "torch.nn.modules.linear.Linear">} : (tensor<2x8xf32>) -> tensor<2x4xf32>
    mav.output %fc3 : tensor<2x4xf32>
  }
  mav.graph private @fc1.forward(%x: !mav.tensor) -> !mav.tensor {
    %fc1_bias = mav.get_attr @fc1.bias {scope = #mav.scope<"fc1", "torch.nn.modules.linear.Linear">} : tensor<16xf32>
    %fc1_weight = mav.get_attr @fc1.weight {scope = #mav.scope<"fc1", "torch.nn.modules.linear.Linear">} : tensor<16x16xf32>
    %linear = mav.call_function "aten::linear" (%x, %fc1_weight, %fc1_bias) {scope = #mav.scope<"fc1", "torch.nn.modules.linear.Linear">} : (!mav.tensor, tensor<16x16xf32>, tensor<16xf32>) -> !mav.tensor
    mav.output %linear : !mav.tensor
  }
  mav.graph private @bn1.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %bn1_running_var = mav.get_attr @bn1.running_var {scope = #mav.scope<"bn1", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<16xf32>
    %bn1_running_mean = mav.get_attr @bn1.running_mean {scope = #mav.scope<"bn1", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<16xf32>
    %bn1_bias = mav.get_attr @bn1.bias {scope = #mav.scope<"bn1", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<16xf32>
    %bn1_weight = mav.get_attr @bn1.weight {scope = #mav.scope<"bn1", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<16xf32>
    %batch_norm = mav.call_function "aten::batch_norm" (%argument_1, %bn1_weight, %bn1_bias, %bn1_running_mean, %bn1_running_var, false, 1.000000e-01, 1.000000e-05, true) {scope = #mav.scope<"bn1", "torch.nn.modules.batchnorm.BatchNorm1d">} : (!mav.tensor, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> !mav.tensor
    mav.output %batch_norm : !mav.tensor
  }
  mav.graph private @relu.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %relu = mav.call_function "aten::relu" (%argument_1) {scope = #mav.scope<"relu", "torch.nn.modules.activation.ReLU">} : (!mav.tensor) -> !mav.tensor
    mav.output %relu : !mav.tensor
  }
  mav.graph private @fc2.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %fc2_bias = mav.get_attr @fc2.bias {scope = #mav.scope<"fc2", "torch.nn.modules.linear.Linear">} : tensor<8xf32>
    %fc2_weight = mav.get_attr @fc2.weight {scope = #mav.scope<"fc2", "torch.nn.modules.linear.Linear">} : tensor<8x16xf32>
    %linear = mav.call_function "aten::linear" (%argument_1, %fc2_weight, %fc2_bias) {scope = #mav.scope<"fc2", "torch.nn.modules.linear.Linear">} : (!mav.tensor, tensor<8x16xf32>, tensor<8xf32>) -> !mav.tensor
    mav.output %linear : !mav.tensor
  }
  mav.graph private @bn2.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %bn2_running_var = mav.get_attr @bn2.running_var {scope = #mav.scope<"bn2", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<8xf32>
    %bn2_running_mean = mav.get_attr @bn2.running_mean {scope = #mav.scope<"bn2", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<8xf32>
    %bn2_bias = mav.get_attr @bn2.bias {scope = #mav.scope<"bn2", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<8xf32>
    %bn2_weight = mav.get_attr @bn2.weight {scope = #mav.scope<"bn2", "torch.nn.modules.batchnorm.BatchNorm1d">} : tensor<8xf32>
    %batch_norm = mav.call_function "aten::batch_norm" (%argument_1, %bn2_weight, %bn2_bias, %bn2_running_mean, %bn2_running_var, false, 1.000000e-01, 1.000000e-05, true) {scope = #mav.scope<"bn2", "torch.nn.modules.batchnorm.BatchNorm1d">} : (!mav.tensor, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> !mav.tensor
    mav.output %batch_norm : !mav.tensor
  }
  mav.graph private @relu.forward1(%argument_1: !mav.tensor) -> !mav.tensor {
    %relu = mav.call_function "aten::relu" (%argument_1) {scope = #mav.scope<"relu", "torch.nn.modules.activation.ReLU">} : (!mav.tensor) -> !mav.tensor
    mav.output %relu : !mav.tensor
  }
  mav.graph private @fc3.forward(%argument_1: !mav.tensor) -> !mav.tensor {
    %fc3_bias = mav.get_attr @fc3.bias {scope = #mav.scope<"fc3", "torch.nn.modules.linear.Linear">} : tensor<4xf32>
    %fc3_weight = mav.get_attr @fc3.weight {scope = #mav.scope<"fc3", "torch.nn.modules.linear.Linear">} : tensor<4x8xf32>
    %linear = mav.call_function "aten::linear" (%argument_1, %fc3_weight, %fc3_bias) {scope = #mav.scope<"fc3", "torch.nn.modules.linear.Linear">} : (!mav.tensor, tensor<4x8xf32>, tensor<4xf32>) -> !mav.tensor
    mav.output %linear : !mav.tensor
  }
}

{-#
  dialect_resources: {
    builtin: {
      fc1.weight: "0x040000000054F5BA5E54093E16B352BE80663CBEF432C5BDEC4B893D404FA2BBCEFA4A3E70BFB5BC4C7B873DACBB9ABD704849BDB89174BE528B29BEE80ED3BD00BB173C6069CA3D189B193E8C8D2DBEFCF4DEBD98F7B93D4E94543E48BD52BD5C913F3E400D25BD10B5D83C4ACD673ECE7B6DBE662921BEE09E81BDDC93C7BD282F5D3E1AEF25BEC0B0EBBD1ADA32BE76C26FBE047015BE9E0E5C3EBC76E43D0027F83D406A573C3A3F03BEC03E2D3D9E066FBE1AFA38BEC6F903BE2685213E2619163EC811E3BD20CB13BC40BA233E827F7E3E2434CB3DC8550A3DFEA42B3EC0BB16BEF8D03E3D6C7A46BE186E31BED23E04BE8CAAE73DF8E7CD3D6AA417BEC8AD9A3D6E890C3E203F01BD40641C3C00446D3D00D11E3E48CF753E964745BEECA1BBBD9838C93DD01B543EE8C55E3E22E2613E78CA4B3DF89C5EBE9066BC3CAC2720BE8C946EBE3E74633EF0A6423EFE5D7FBE08AA3F3DC8802CBDB88228BD1C5FEABD8CE4C43D34A117BEDCB1BB3D1676013E5C43373E4871BF3D4A5F7DBE001126BE38A6FF3D1853563D96B347BEE86813BEF2D4703E547F2C3EB03EDFBDD4DC80BD78DD73BE803E93BB78C840BEA27745BE20B061BCA0BF193DF4ADD1BD98E7173E38C91BBE6849683ED06F2F3E64E157BE88DB7EBD80D2383C1867153DD0DD723D5CECC83DE059753CCCD1F9BDD445F23D569175BEA0BB17BE3C2B80BDEC66F9BD5C1DB3BDBAD251BE00D259BDF8E25A3D76C626BE403452BC0042373EF088D2BC80ACE33BC0ADB0BC103D4F3D60C6223EBA7E723E0693223EC40C733E601D94BC66F865BE40BAF2BDCE4F2E3E006BD4BADC7CFEBD022D44BE00946FBEEC1058BE70B44FBD56640C3E74670A3E02E576BE2EB01F3E8A5248BEF07B58BD1C9ACFBDF03C45BD100E49BDBAB865BE440A5DBE283C20BD80E1533BB896E8BDB8DEC03D3A6A66BEC0368ABCA221613E38D7D0BD362B673E386CB93DAE0767BE74F8213EF053ECBC708FE4BD14B64C3E54DF4EBEB0C2DB3CC06456BD16D0363E08EC8E3DCC04F63D40D1B43D003F76BD505A57BD00F752BE4CB60A3E26424B3E5C292F3EAC9334BE60AE363C907634BE88EC0CBE302C15BE34F9AE3DC48D18BE00BAB2BBA04F2C3C0406253EFA8341BE44BF2FBE3CA614BED62E333ECC0BB8BDE0EE573EA024B93D40AA013D00EDF3BA086D4ABD407A003D30D369BD003EE6BAC0A7023D983E48BE7A2D06BED8B74E3E86C14FBE200F93BCC03E7D3E10F4B83DC0F0E73B26DA5DBE2CA2FD3D085836BEA85691BDCCC8ABBD38A417BD8036333B9626533E80ABFF3C204C653E30991C3EC6D821BE54A2E53D24F734BE9CFFD8BD4097963DF00EA93DF20E403E28D2A4BD00D4D1397ACB033E5A9377BE4215393E30B153BE00D0613BE0182EBD0AD406BED857073DF2B0533EE8AA95BD56FC17BE845BBDBD",
      fc1.bias: "0x04000000E6BB7DBE1C1DE73D20E5F5BDD0D62ABE627B13BE5230133E2492073E507C443ED8B6B93DC4FCAABDD4138FBD9842973DDE70523E74358B3D1C40F2BDFCADF0BD",
      bn1.weight: "0x040000008C28BDBEE8ED9B3F2E95823ED2488C3E6AA40FBFE74FDCBE7E9CAABE58F0C5BFCAD5FA3D58D189BF35A126BFF850CFBFD2F768BD5531213FA8D68A3E969C2FBF",
      bn1.bias: "0x040000009CCD4E3F8D4B2F3E6AFA853BF75F1E3E597C3A3EA17F343DDD4827BF93D4B4BE1415433E180469BEB0B68FBF5D4705BF9030C3BD7076B73E1A0380BFD6379ABF",
      bn1.running_mean: "0x04000000DC76EE3DDD20953C9B67503EF835203F697C19BFCC6B52BC3AB4663FB7A207BF48F50FBBF1498EBF3372BD3E2952B7BE3050D1BD110122BE6599253F8E312C3F",
      bn1.running_var: "0x040000002DEAF13DD2E3353FE169A83F7B32A13E119AB53FE382D13FB0A19E3F1BA1DC3E7F3CA63EA89E4A3F95FCC43F858705405A67D63FA4C57C3FCDADB93F4D95F33D",
      bn1.num_batches_tracked: "0x080000000000000000000000",
      fc2.weight: "0x04000000420A72BEB03B5D3DA8A90FBE503E64BEFA7A603ED03F26BED0FBE8BC48AF923DE07D023CFA412CBE2CEE4EBE980D4C3E30BF263D4662543EA8A4ABBDF8CF963D182A6ABD602736BC52EA1BBEAC28AD3D80E0A13D40FDA8BBC04C66BD58CE1DBE1409313E94923EBEACBFD13D6C29ACBD0C06F7BDE0F4373D22FB04BE40EF6B3D1018493DCA133EBE987E2A3D6413DA3D5CAACA3D58E600BD9ADD51BE90DA1DBD50D2B13D2CD1BABD7458C23D867C2A3EBAAB05BE8093213B24B6D33D9084A03C9012AB3C70B9FF3CFA4049BEE0F2A03CB445313E64AF663ED876163E1838093D7C1CEF3DDC13F9BDEC2454BECA235CBE5A637F3E8E81223EB2F430BEF450C83DAA52413EC2E67F3E58D85F3E4456463EF0C26ABDA0AEB3BD4230523E0A750F3E300E1ABEFE25663E9060F73D008E0B3E6A7420BE88E4923DEC7CB3BDFC06483E584238BDF853C73D80E2353DF8D6D93DE0FDADBDF4A2F93DFECE32BE8846673D20352DBEBA8D7CBE10954DBEB61A4A3E50810A3EE82E703E48164D3EA09E64BECEB32EBEE87525BD324126BEF8C3313EBA8941BE38CEF9BDC45177BEC65711BEE28D523E429A513E2441373E22AA453EBAA1633EB01A83BDF447E13D0414643E1461A93DCAEA7F3E18C7043E58241F3E2C32B3BDF4ABF53D2054EB3C888C74BD4A4F10BE56A50FBEB2FC44BE4EDC2B3E96FF353EA016E9BCC42414BE22DD453E",
      fc2.bias: "0x040000008CB5233E703C983CB8BBF1BDB8466B3EAC60D13D5A5742BE6203753E5266423E",
      bn2.weight: "0x040000002B032740C91A8DBE33F9A33F6F7F22BE25B0B33ED3F263BE870B4CBFAD4C83BE",
      bn2.bias: "0x040000002142ABBEF65F58BDF1DF4B3F7CE49CBE6DCDAF3E4C95053F8E7C0F3F3E2BE03E",
      bn2.running_mean: "0x04000000F165CE3E0F8F62BF8B2A3B3D367A1ABDA1DBD63E27DFFD3D3B9FD33DED26FE3E",
      bn2.running_var: "0x040000008C10033F26A8173F79370140E8B6543F55738C3FB4911D3F624A06402AE80440",
      bn2.num_batches_tracked: "0x080000000000000000000000",
      fc3.weight: "0x04000000B5F503BE8D854B3ED6B44DBE53F262BD28B4993E92586F3C290580BEAF02F2BD1B8CC4BD03B28BBDDC960A3D7B69A73EC5119B3C83895FBEBF72943CC8972D3EF395333EC770A5BE739181BD068686BE077A1ABEAD70023E1C8C80BE5A94063E2FA5993ED3F6BD3C584B71BE88B601BECD1C9E3D8AFE89BE53DD333E8A57A4BE",
      fc3.bias: "0x040000003F03AEBEADE3AFBE85E392BD5C72733E"
    }
  }
#-}

